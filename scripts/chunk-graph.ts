/** The parts of a bundled chunk the build's HTML plugins read (Rolldown's OutputChunk has them). */
interface ChunkImports {
  fileName: string;
  imports: string[];
}

/**
 * The files of `roots` and of every chunk they import however deep: the browser fetches a preloaded module but not
 * its imports, so a chunk two levels down would otherwise wait for the one above it to arrive.
 */
export function chunksImportedBy(chunks: readonly ChunkImports[], roots: readonly string[]): Set<string> {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const needed = new Set<string>();
  const visit = (file: string) => {
    if (needed.has(file)) return;
    needed.add(file);
    for (const next of byName.get(file)?.imports ?? []) visit(next);
  };
  for (const root of roots) visit(root);
  return needed;
}
