import type { DocumentGoal } from '@shared/schemas/goals';

const WIDTH = 240;
const HEIGHT = 48;

const dayLabel = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Net words per day, the last 30 days, as small bars (days with fewer words than zero draw none). The same
 * numbers are in a table for screen readers.
 */
export function WordsChart({ history }: { history: DocumentGoal['history'] }) {
  const most = Math.max(1, ...history.map((entry) => entry.words));
  const step = WIDTH / Math.max(1, history.length);
  const first = history[0];
  const last = history.at(-1);
  return (
    <figure className="space-y-1" data-testid="goal-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-12 w-full"
        role="img"
        aria-label={`Words written per day, the last ${history.length} days`}
      >
        {history.map((entry, i) => {
          const height = entry.words > 0 ? Math.max(2, (entry.words / most) * HEIGHT) : 0;
          return (
            <rect
              key={entry.day}
              x={i * step + 1}
              y={HEIGHT - height}
              width={Math.max(1, step - 2)}
              height={height}
              rx="1"
              className={i === history.length - 1 ? 'fill-primary' : 'fill-primary/40'}
            >
              <title>{`${dayLabel(entry.day)}: ${entry.words.toLocaleString()} words`}</title>
            </rect>
          );
        })}
        <line x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-border" />
      </svg>
      {first && last && (
        <figcaption className="flex justify-between text-[10px] text-muted-foreground" aria-hidden>
          <span>{dayLabel(first.day)}</span>
          <span>Today</span>
        </figcaption>
      )}
      <table className="sr-only">
        <caption>Words written per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Words</th>
          </tr>
        </thead>
        <tbody>
          {history.map((entry) => (
            <tr key={entry.day}>
              <td>{dayLabel(entry.day)}</td>
              <td>{entry.words}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
