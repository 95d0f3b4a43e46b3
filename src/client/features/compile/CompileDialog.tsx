import { useQuery } from '@tanstack/react-query';
import { Loader2Icon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import {
  BOOK_FORMATS,
  CHAPTER_NUMBERINGS,
  SCENE_BREAKS,
  TRIM_SIZES,
  type BookFormat,
  type BookStyle,
  type ChapterNumbering,
  type SceneBreak,
  type TrimSize,
} from '@shared/schemas/compile';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from '@client/features/auth';
import { errorMessage } from '@client/lib/api';
import { bookOutlineRequest, compileRequest, type BookTarget } from './api';

const FORMAT_LABELS: Record<BookFormat, string> = { epub: 'EPUB', pdf: 'PDF', docx: 'Word (.docx)' };
const NUMBERING_LABELS: Record<ChapterNumbering, string> = {
  none: 'No numbers',
  number: 'Chapter 1',
  words: 'Chapter One',
  roman: 'I, II, III',
};
const SCENE_BREAK_LABELS: Record<SceneBreak, string> = { asterisks: '* * *', hash: '#', ornament: '❦' };
const TRIM_LABELS: Record<TrimSize, string> = {
  '6x9': '6 × 9 in',
  '5.5x8.5': '5.5 × 8.5 in',
  a5: 'A5',
  letter: 'US Letter',
  a4: 'A4',
};
type Role = 'front' | 'chapter' | 'back';

const SELECT_CLASS = 'h-9 w-full rounded-md border border-input bg-background px-2 text-sm dark:bg-input/20';

function Field({ label, children, id }: { label: string; children: ReactNode; id: string }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * "Compile book…": a folder (one chapter per document) or a document (one chapter per level-1 heading) as
 * an EPUB, a PDF or a Word file, with the book's title, author, pages, numbering, scene breaks and trim.
 */
export function CompileDialog({ target, onDone }: { target: BookTarget | null; onDone(): void }) {
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onDone()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
        {target ? <CompileForm key={`${target.kind}:${target.id}`} target={target} onDone={onDone} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CompileForm({ target, onDone }: { target: BookTarget; onDone(): void }) {
  const id = useId();
  const { user } = useAuth();
  const outline = useQuery({
    queryKey: ['book-outline', target.kind, target.id],
    queryFn: () => bookOutlineRequest(target),
    staleTime: 0,
  });
  const [title, setTitle] = useState(target.name);
  const [author, setAuthor] = useState(user?.user_metadata.full_name ?? '');
  const [format, setFormat] = useState<BookFormat>('epub');
  const [style, setStyle] = useState<BookStyle>('book');
  const [trim, setTrim] = useState<TrimSize>('6x9');
  const [numbering, setNumbering] = useState<ChapterNumbering>('none');
  const [sceneBreak, setSceneBreak] = useState<SceneBreak>('asterisks');
  const [titlePage, setTitlePage] = useState(true);
  const [copyrightPage, setCopyrightPage] = useState(true);
  const [contents, setContents] = useState(true);
  const [copyright, setCopyright] = useState('');
  const [language, setLanguage] = useState('en');
  const [contact, setContact] = useState('');
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const [compiling, setCompiling] = useState(false);

  const chapters = outline.data?.chapters ?? [];
  const included = chapters.filter((chapter) => !excluded.has(chapter.id));
  const manuscript = style === 'manuscript';

  const compile = async () => {
    setCompiling(true);
    try {
      const roleIds = (role: Role) => Object.keys(roles).filter((chapterId) => roles[chapterId] === role);
      const { blob, fileName } = await compileRequest(target, {
        format,
        style,
        title: title.trim() || undefined,
        author: author.trim(),
        language: language.trim() || 'en',
        copyright: copyright.trim() || undefined,
        contact: contact.trim() || undefined,
        titlePage,
        copyrightPage,
        tableOfContents: contents,
        chapterNumbering: numbering,
        sceneBreak,
        trim,
        exclude: [...excluded],
        frontMatter: roleIds('front'),
        backMatter: roleIds('back'),
      });
      download(blob, fileName);
      toast({ title: 'Book compiled', description: `${fileName} is downloading.` });
      onDone();
    } catch (error) {
      toast({ title: 'Compile failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setCompiling(false);
    }
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Compile book</DialogTitle>
        <DialogDescription>
          {target.kind === 'folder'
            ? 'Each document in this folder becomes a chapter, in folder order.'
            : 'Each level-1 heading in this document starts a chapter.'}
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Title" id={`${id}-title`}>
            <Input
              id={`${id}-title`}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              maxLength={300}
            />
          </Field>
          <Field label="Author" id={`${id}-author`}>
            <Input
              id={`${id}-author`}
              value={author}
              onChange={(e) => setAuthor(e.target.value)}
              maxLength={300}
            />
          </Field>
        </div>

        <fieldset className="grid gap-1.5">
          <legend className="mb-1.5 text-sm font-medium">Format</legend>
          <div className="grid grid-cols-3 gap-2" role="radiogroup" aria-label="Format">
            {BOOK_FORMATS.map((value) => (
              <Button
                key={value}
                type="button"
                role="radio"
                aria-checked={format === value}
                variant={format === value ? 'default' : 'outline'}
                onClick={() => setFormat(value)}
              >
                {FORMAT_LABELS[value]}
              </Button>
            ))}
          </div>
        </fieldset>

        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Style" id={`${id}-style`}>
            <select
              id={`${id}-style`}
              className={SELECT_CLASS}
              value={style}
              onChange={(e) => setStyle(e.target.value as BookStyle)}
            >
              <option value="book">Book</option>
              <option value="manuscript">Manuscript (for agents and editors)</option>
            </select>
          </Field>
          <Field label="Page size (PDF and Word)" id={`${id}-trim`}>
            <select
              id={`${id}-trim`}
              className={SELECT_CLASS}
              value={trim}
              disabled={format === 'epub'}
              onChange={(e) => setTrim(e.target.value as TrimSize)}
            >
              {TRIM_SIZES.map((value) => (
                <option key={value} value={value}>
                  {TRIM_LABELS[value]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Chapter numbers" id={`${id}-numbering`}>
            <select
              id={`${id}-numbering`}
              className={SELECT_CLASS}
              value={numbering}
              onChange={(e) => setNumbering(e.target.value as ChapterNumbering)}
            >
              {CHAPTER_NUMBERINGS.map((value) => (
                <option key={value} value={value}>
                  {NUMBERING_LABELS[value]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Scene breaks" id={`${id}-breaks`}>
            <select
              id={`${id}-breaks`}
              className={SELECT_CLASS}
              value={sceneBreak}
              disabled={manuscript}
              onChange={(e) => setSceneBreak(e.target.value as SceneBreak)}
            >
              {SCENE_BREAKS.map((value) => (
                <option key={value} value={value}>
                  {SCENE_BREAK_LABELS[value]}
                </option>
              ))}
            </select>
          </Field>
        </div>

        <fieldset className="flex flex-wrap gap-x-5 gap-y-2 text-sm" disabled={manuscript}>
          <legend className="sr-only">Pages</legend>
          {(
            [
              ['Title page', titlePage, setTitlePage],
              ['Copyright page', copyrightPage, setCopyrightPage],
              ['Table of contents', contents, setContents],
            ] as const
          ).map(([label, checked, set]) => (
            <label key={label} className="flex items-center gap-2">
              <input
                type="checkbox"
                className="size-4"
                checked={checked}
                onChange={(e) => set(e.target.checked)}
              />
              {label}
            </label>
          ))}
        </fieldset>

        {manuscript ? (
          <Field label="Contact details (title page)" id={`${id}-contact`}>
            <Textarea
              id={`${id}-contact`}
              rows={3}
              value={contact}
              placeholder={'Street and town\nname@example.com\nPhone'}
              onChange={(e) => setContact(e.target.value)}
            />
          </Field>
        ) : (
          <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
            <Field label="Copyright line" id={`${id}-copyright`}>
              <Input
                id={`${id}-copyright`}
                value={copyright}
                placeholder={`Copyright © ${new Date().getFullYear()} ${author || 'the author'}`}
                onChange={(e) => setCopyright(e.target.value)}
              />
            </Field>
            <Field label="Language" id={`${id}-language`}>
              <Input id={`${id}-language`} value={language} onChange={(e) => setLanguage(e.target.value)} />
            </Field>
          </div>
        )}

        <section aria-labelledby={`${id}-chapters`} className="grid gap-2">
          <h3 id={`${id}-chapters`} className="text-sm font-medium">
            Chapters {chapters.length > 0 ? `(${included.length} of ${chapters.length})` : null}
          </h3>
          {outline.isPending ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> Reading the chapters…
            </p>
          ) : outline.isError ? (
            <p className="text-sm text-destructive">{errorMessage(outline.error)}</p>
          ) : chapters.length === 0 ? (
            <p className="text-sm text-muted-foreground">This folder holds no documents yet.</p>
          ) : (
            <ol className="max-h-56 divide-y overflow-y-auto rounded-md border">
              {chapters.map((chapter) => (
                <li key={chapter.id} className="flex items-center gap-2 px-3 py-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 shrink-0"
                    aria-label={`Include ${chapter.title}`}
                    checked={!excluded.has(chapter.id)}
                    onChange={(e) =>
                      setExcluded((set) => {
                        const next = new Set(set);
                        if (e.target.checked) next.delete(chapter.id);
                        else next.add(chapter.id);
                        return next;
                      })
                    }
                  />
                  <span className="min-w-0 flex-1 truncate">{chapter.title}</span>
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                    {chapter.words.toLocaleString()} words
                  </span>
                  {target.kind === 'folder' ? (
                    <select
                      aria-label={`Place of ${chapter.title}`}
                      className="h-7 shrink-0 rounded-md border border-input bg-background px-1 text-xs dark:bg-input/20"
                      value={roles[chapter.id] ?? 'chapter'}
                      onChange={(e) => setRoles((all) => ({ ...all, [chapter.id]: e.target.value as Role }))}
                    >
                      <option value="front">Front matter</option>
                      <option value="chapter">Chapter</option>
                      <option value="back">Back matter</option>
                    </select>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={compiling}>
          Cancel
        </Button>
        <Button
          onClick={() => void compile()}
          disabled={compiling || outline.isPending || included.length === 0}
        >
          {compiling ? (
            <>
              <Loader2Icon className="animate-spin" aria-hidden="true" /> Compiling…
            </>
          ) : (
            `Compile ${FORMAT_LABELS[format]}`
          )}
        </Button>
      </DialogFooter>
    </>
  );
}
