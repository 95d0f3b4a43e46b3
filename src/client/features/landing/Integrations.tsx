import { Cloud, GitBranch, MessageSquare, NotebookPen, Palette, Workflow } from 'lucide-react';

/** Logos of the kinds of tools writers pair with Quillwright, drawn as icons (no third-party marks). */
const INTEGRATIONS = [
  { label: 'Cloud drive', Icon: Cloud },
  { label: 'Notes', Icon: NotebookPen },
  { label: 'Team chat', Icon: MessageSquare },
  { label: 'Automation', Icon: Workflow },
  { label: 'Code host', Icon: GitBranch },
  { label: 'Design', Icon: Palette },
] as const;

export function Integrations() {
  return (
    <section aria-labelledby="integrations-title" className="border-y bg-muted/30 py-14">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2
          id="integrations-title"
          className="text-center text-sm font-semibold tracking-wide text-muted-foreground uppercase"
        >
          Fits in with the tools you already use
        </h2>
        <ul className="mt-8 grid grid-cols-3 gap-4 sm:grid-cols-6">
          {INTEGRATIONS.map(({ label, Icon }) => (
            <li key={label} className="flex flex-col items-center gap-2 text-center">
              <span className="grid size-12 place-items-center rounded-xl border bg-card text-foreground/80 shadow-xs">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <span className="text-sm text-muted-foreground">{label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
