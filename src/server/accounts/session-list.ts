import Bowser from 'bowser';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { SessionSummary } from '../../shared/schemas/auth';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';
import { notFound } from '../errors';
import { forgetActiveSessions } from '../plugins';

/** "Chrome on Linux" from a User-Agent; what is unknown is left out ("Unknown device" when nothing is). */
function deviceName(userAgent: string): string {
  if (!userAgent.trim()) return 'Unknown device';
  const parser = Bowser.getParser(userAgent);
  const browser = parser.getBrowserName();
  const os = parser.getOSName();
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || 'Unknown device';
}

/** The user's signed-in sessions: the one asking first (`current`), then the others by last use. */
export async function listSessions(
  db: Db,
  principal: { userId: string; sessionId: string },
): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, principal.userId), isNull(sessions.revokedAt)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  // This device first, then the others by last use.
  rows.sort((a, b) => Number(b.id === principal.sessionId) - Number(a.id === principal.sessionId));
  return rows.map((row) => ({
    id: row.id,
    device: deviceName(row.userAgent),
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    current: row.id === principal.sessionId,
  }));
}

/**
 * Signs one of the user's sessions out. Another user's session, or one already ended, answers 404 alike.
 * The session cache is forgotten so the session's access tokens stop working on this instance at once.
 */
export async function revokeSession(db: Db, userId: string, sessionId: string): Promise<void> {
  const [revoked] = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (!revoked) throw notFound('Session not found', 'session_not_found');
  forgetActiveSessions(db);
}
