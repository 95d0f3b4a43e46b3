// People on a document: the owner's People section of the Share menu, the dashboard's "Shared with me", and the
// page where a member opens a document shared with them (routes.tsx loads MemberDocumentPage on its own).
export { PeopleSection } from './PeopleSection';
export { SharedWithMe } from './SharedWithMe';
export { useMembers } from './api';
