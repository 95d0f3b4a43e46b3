import type { VersionReason, VersionSummary } from '@shared/schemas/versions';
import { format, isToday, isYesterday } from 'date-fns';

/** How each kind of version is described in the history panel. */
export const REASON_LABELS: Record<VersionReason, string> = {
  auto: 'Automatic version',
  ai: 'Before an AI change',
  restore: 'Before a restore',
  import: 'Before an import',
  manual: 'Named version',
  session_end: 'End of editing session',
};

export function versionTitle(version: Pick<VersionSummary, 'name' | 'reason'>): string {
  return version.name ?? REASON_LABELS[version.reason];
}

export function dayLabel(date: Date): string {
  if (isToday(date)) return 'Today';
  if (isYesterday(date)) return 'Yesterday';
  return format(date, 'EEEE, d MMMM yyyy');
}

export function timeLabel(date: Date): string {
  return format(date, 'HH:mm');
}

/** Versions (already newest first) grouped by calendar day, in the same order. */
export function groupByDay<T extends { created_at: string }>(
  versions: readonly T[],
): { day: string; items: T[] }[] {
  const groups: { day: string; items: T[] }[] = [];
  for (const version of versions) {
    const day = dayLabel(new Date(version.created_at));
    const last = groups[groups.length - 1];
    if (last?.day === day) last.items.push(version);
    else groups.push({ day, items: [version] });
  }
  return groups;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/u).filter(Boolean);
  return (
    (parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}
