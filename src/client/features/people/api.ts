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

const membersKey = (documentId: string) => [`/api/documents/${documentId}/members`] as const;
const sharedWithMeKey = ['/api/shared-with-me'] as const;
const memberDocumentKey = (documentId: string) => [`/api/shared-with-me/${documentId}`] as const;

/** The owner's list of people on a document (members and waiting invitations) and the plan's limit. */
export function useMembers(documentId: string, enabled = true) {
  return useQuery<DocumentMembers>({ queryKey: membersKey(documentId), enabled });
}

function useMembersMutation<T, R>(documentId: string, send: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    // The list is asked for again rather than patched: the server orders it and counts it against the limit.
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey(documentId) }),
  });
}

export function useInviteMember(documentId: string) {
  return useMembersMutation(documentId, (input: InviteMember) =>
    apiRequest<DocumentMember>('POST', `/api/documents/${documentId}/members`, input),
  );
}

export function useChangeMemberRole(documentId: string) {
  return useMembersMutation(documentId, ({ memberId, role }: { memberId: string; role: MemberRole }) =>
    apiRequest<DocumentMember>('PATCH', `/api/documents/${documentId}/members/${memberId}`, { role }),
  );
}

export function useRemoveMember(documentId: string) {
  return useMembersMutation(documentId, (memberId: string) =>
    apiRequest<void>('DELETE', `/api/documents/${documentId}/members/${memberId}`),
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
