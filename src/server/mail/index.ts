/** What other folders may use from mail; everything else in the folder is its own business. */
export { createMailer, outboxDir } from './mailer';
export type { Mailer } from './mailer';
export {
  emailChangeMail,
  emailChangeNoticeMail,
  existingAccountMail,
  folderInvitationMail,
  invitationMail,
  notificationDigestMail,
  recoveryMail,
  signupMail,
} from './templates';
