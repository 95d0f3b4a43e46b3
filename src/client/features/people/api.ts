import { apiRequest } from '@client/lib/api';
import type {
  DocumentMember,
  DocumentMembers,
  InviteMember,
  MemberDocument,
  MemberRole,
  SharedWithMeDocument,
} from '@shared/schemas/people';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MEMBER_ROLE_RECHECK_MS } from '@shared/constants';

/** What people are invited to: one document, or a folder (its role holds on every document under it). */
export interface MemberTarget {
  kind: 'document' | 'folder';
  id: string;
}

const membersPath = (target: MemberTarget) =>
  `/api/${target.kind === 'folder' ? 'folders' : 'documents'}/${target.id}/members`;
const membersKey = (target: MemberTarget) => [membersPath(target)] as const;
const sharedWithMeKey = ['/api/shared-with-me'] as const;
const memberDocumentKey = (documentId: string) => [`/api/shared-with-me/${documentId}`] as const;

/** The owner's list of people on a document or folder (members and waiting invitations) and the plan's limit. */
export function useMembers(target: MemberTarget, enabled = true) {
  return useQuery<DocumentMembers>({ queryKey: membersKey(target), enabled });
}

function useMembersMutation<T, R>(target: MemberTarget, send: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    // The list is asked for again rather than patched: the server orders it and counts it against the limit.
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey(target) }),
  });
}

export function useInviteMember(target: MemberTarget) {
  return useMembersMutation(target, (input: InviteMember) =>
    apiRequest<DocumentMember>('POST', membersPath(target), input),
  );
}

export function useChangeMemberRole(target: MemberTarget) {
  return useMembersMutation(target, ({ memberId, role }: { memberId: string; role: MemberRole }) =>
    apiRequest<DocumentMember>('PATCH', `${membersPath(target)}/${memberId}`, { role }),
  );
}

export function useRemoveMember(target: MemberTarget) {
  return useMembersMutation(target, (memberId: string) =>
    apiRequest<void>('DELETE', `${membersPath(target)}/${memberId}`),
  );
}

/**
 * The dashboard's "Shared with me". Asked again when the window regains focus: an invitation or a removal
 * happens in someone else's browser, and nothing pushes it to this one.
 */
export function useSharedWithMe() {
  return useQuery<SharedWithMeDocument[]>({
    queryKey: sharedWithMeKey,
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });
}

/**
 * A document opened as a member, with the role held now, asked again every few seconds: the owner may change the
 * role at any time, and an editor made suggester keeps the same socket (the server only starts checking it).
 */
export function useMemberDocument(documentId: string, enabled = true) {
  return useQuery<MemberDocument>({
    queryKey: memberDocumentKey(documentId),
    enabled,
    staleTime: 0,
    refetchInterval: MEMBER_ROLE_RECHECK_MS,
    refetchOnWindowFocus: true,
  });
}
