import escapeHtml from 'escape-html';
import { PRODUCT_NAME } from '../../shared/constants';
import type { MailMessage } from './mailer';

function layout(heading: string, paragraphs: string[], action: string, link: string, footer: string): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>
<html><body style="font-family: Inter, Arial, sans-serif; color: #111827; line-height: 1.5">
<h1 style="font-size: 20px">${escapeHtml(heading)}</h1>
${body}
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #111827; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="font-size: 13px; color: #6b7280">${escapeHtml(footer)}</p>
<p style="font-size: 13px; color: #6b7280">${escapeHtml(link)}</p>
</body></html>`;
}

function message(
  type: MailMessage['type'],
  to: string,
  subject: string,
  paragraphs: string[],
  action: string,
  link: string,
  footer: string,
): MailMessage {
  const text = `${paragraphs.join('\n\n')}\n\n${action}: ${link}\n\n${footer}\n`;
  return { type, to, subject, text, html: layout(subject, paragraphs, action, link, footer), link };
}

export function recoveryMail(to: string, link: string, validMinutes: number): MailMessage {
  return message(
    'recovery',
    to,
    `Reset your ${PRODUCT_NAME} password`,
    [
      `Someone (hopefully you) asked to reset the password of your ${PRODUCT_NAME} account.`,
      `The link works once and expires in ${validMinutes} minutes.`,
    ],
    'Choose a new password',
    link,
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  );
}

/** Sent instead of a confirmation when someone signs up with an address that already has an account. */
export function existingAccountMail(to: string, link: string, validMinutes: number): MailMessage {
  return message(
    'recovery',
    to,
    `You already have a ${PRODUCT_NAME} account`,
    [
      `Someone (hopefully you) tried to create a ${PRODUCT_NAME} account with this address, which already has one.`,
      `Sign in as usual, or, if you forgot your password, choose a new one with this link. It works once and expires in ${validMinutes} minutes.`,
    ],
    'Choose a new password',
    link,
    'If this was not you, ignore this mail: nothing has changed.',
  );
}

export function signupMail(to: string, link: string, validHours: number): MailMessage {
  return message(
    'signup',
    to,
    `Confirm your ${PRODUCT_NAME} account`,
    [
      `Welcome to ${PRODUCT_NAME}! Confirm your e-mail address to start writing.`,
      `The link works once and expires in ${validHours} hours.`,
    ],
    'Confirm my e-mail address',
    link,
    'If you did not sign up, ignore this mail and no account will be activated.',
  );
}

export function emailChangeMail(to: string, link: string, validHours: number): MailMessage {
  return message(
    'email_change',
    to,
    `Confirm your new ${PRODUCT_NAME} e-mail address`,
    [
      `You asked to use this address for your ${PRODUCT_NAME} account.`,
      `The link works once and expires in ${validHours} hours.`,
    ],
    'Confirm the new address',
    link,
    'If you did not ask for this, ignore this mail: the account keeps its current address.',
  );
}

/**
 * Sent to the CURRENT address when a change to another one is asked for: if someone else holds the session,
 * the owner learns of it before the change can be confirmed, and can take the account back with the link.
 */
export function emailChangeNoticeMail(
  to: string,
  newEmail: string,
  recoveryLink: string,
  validMinutes: number,
): MailMessage {
  return message(
    'email_change_notice',
    to,
    `Your ${PRODUCT_NAME} e-mail address is about to change`,
    [
      `Someone signed in to your ${PRODUCT_NAME} account asked to change its e-mail address to ${newEmail}.`,
      'The change happens only when the link sent to the new address is opened.',
      `If this was not you, choose a new password now with this link: it signs out every other device. It works once and expires in ${validMinutes} minutes.`,
    ],
    'Choose a new password',
    recoveryLink,
    'If you asked for this change, there is nothing to do here.',
  );
}

/** The owner of a document invited an address that has no account yet. */
export function invitationMail(
  to: string,
  inviter: string,
  documentTitle: string,
  roleText: string,
  link: string,
): MailMessage {
  return message(
    'invitation',
    to,
    `${inviter} shared “${documentTitle}” with you`,
    [
      `${inviter} invited you to the document “${documentTitle}” on ${PRODUCT_NAME}: you ${roleText}.`,
      `Create your ${PRODUCT_NAME} account with this address (${to}) and the document opens for you.`,
    ],
    'Open the document',
    link,
    'If you did not expect this, ignore this mail: nothing happens without an account.',
  );
}

/** An invitation to a folder: the role holds on every document in it and in its sub-folders. */
export function folderInvitationMail(
  to: string,
  inviter: string,
  folderName: string,
  roleText: string,
  link: string,
): MailMessage {
  return message(
    'invitation',
    to,
    `${inviter} shared the folder “${folderName}” with you`,
    [
      `${inviter} invited you to the folder “${folderName}” on ${PRODUCT_NAME}: you ${roleText}, and the documents added to it later too.`,
      `Create your ${PRODUCT_NAME} account with this address (${to}) and its documents appear under “Shared with me”.`,
    ],
    'Open the folder',
    link,
    'If you did not expect this, ignore this mail: nothing happens without an account.',
  );
}

/**
 * The notifications a person has not read yet, in one mail (docs/notifications.md): one line each, like
 * “Ada Author mentioned you in “Novel”: “Look here””.
 */
export function notificationDigestMail(to: string, lines: string[], link: string): MailMessage {
  const subject =
    lines.length === 1
      ? `1 new notification on ${PRODUCT_NAME}`
      : `${lines.length} new notifications on ${PRODUCT_NAME}`;
  return message(
    'notification_digest',
    to,
    subject,
    lines,
    `Open ${PRODUCT_NAME}`,
    link,
    'You get this because of your notification settings; change them in Account settings → Notifications.',
  );
}
