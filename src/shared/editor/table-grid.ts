import type { RichTextNode } from '../schemas/richText';

/** One slot of a table's grid: the cell that starts there, or null where a merged cell covers it. */
export type GridSlot = RichTextNode | null;

const span = (value: unknown) => (typeof value === 'number' && value >= 1 ? Math.floor(value) : 1);

/**
 * A table laid out as rows × columns, the way a reader sees it: a cell spanning columns or rows sits in its
 * top-left slot and the slots it covers are null. Formats without merged cells (GFM, tab-separated text)
 * write those slots empty, so every other cell stays under its own column.
 */
export function tableGrid(table: RichTextNode): GridSlot[][] {
  const rows = table.content ?? [];
  const grid: (GridSlot | undefined)[][] = rows.map(() => []);
  rows.forEach((row, rowIndex) => {
    const slots = grid[rowIndex]!;
    let column = 0;
    for (const cell of row.content ?? []) {
      while (slots[column] !== undefined) column++;
      const colspan = span(cell.attrs?.colspan);
      const rowspan = Math.min(span(cell.attrs?.rowspan), rows.length - rowIndex);
      for (let r = 0; r < rowspan; r++) {
        for (let c = 0; c < colspan; c++) grid[rowIndex + r]![column + c] = r === 0 && c === 0 ? cell : null;
      }
      column += colspan;
    }
  });
  const width = Math.max(0, ...grid.map((slots) => slots.length));
  return grid.map((slots) => Array.from({ length: width }, (_, index) => slots[index] ?? null));
}

/** Whether the table's first row is a header row (every cell in it a header cell). */
export function hasHeaderRow(table: RichTextNode): boolean {
  const first = table.content?.[0]?.content ?? [];
  return first.length > 0 && first.every((cell) => cell.type === 'tableHeader');
}
