import { api } from '../../app/api';
import type { DrawRequest, DrawResult, Family, FamilyCreated, Invite, InviteInfo, OpenInvite, SecretSantaMatch } from './types';

const FAMILIES = { type: 'Families' as const, id: 'ALL' };
const id = encodeURIComponent;
/** A family's open invitations (admins), under the Families tag type with an id of their own. */
const invitesTag = (familyId: string) => ({ type: 'Families' as const, id: `invites:${familyId}` });

export const familiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFamilies: build.query<Family[], void>({
      query: () => '/api/families',
      providesTags: [FAMILIES],
    }),
    createFamily: build.mutation<FamilyCreated, { name: string }>({
      query: (body) => ({ url: '/api/families', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    inviteToFamily: build.mutation<Invite, { familyId: string; email?: string }>({
      query: ({ familyId, email }) => ({
        url: `/api/families/${id(familyId)}/invites`,
        method: 'POST',
        body: email ? { email } : {},
      }),
      // A new link replaces the previous one; either way the list of open invitations changed.
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [invitesTag(familyId)]),
    }),
    getFamilyInvites: build.query<OpenInvite[], string>({
      query: (familyId) => `/api/families/${id(familyId)}/invites`,
      providesTags: (_r, _e, familyId) => [invitesTag(familyId)],
    }),
    revokeInvite: build.mutation<void, { familyId: string; inviteId: string }>({
      query: ({ familyId, inviteId }) => ({ url: `/api/families/${id(familyId)}/invites/${id(inviteId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [invitesTag(familyId)]),
    }),
    removeMember: build.mutation<void, { familyId: string; uid: string }>({
      query: ({ familyId, uid }) => ({ url: `/api/families/${id(familyId)}/members/${id(uid)}`, method: 'DELETE' }),
      // Leaving stops sharing one's lists with the family, and may cancel its draw.
      invalidatesTags: (_r, error, { familyId }) =>
        error ? [] : [FAMILIES, { type: 'Lists', id: 'ALL' }, { type: 'SecretSanta', id: familyId }],
    }),
    setMemberRole: build.mutation<Family, { familyId: string; uid: string; role: 'admin' | 'member' }>({
      query: ({ familyId, uid, role }) => ({
        url: `/api/families/${id(familyId)}/members/${id(uid)}`,
        method: 'PATCH',
        body: { role },
      }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    getInvite: build.query<InviteInfo, string>({
      query: (token) => `/api/invites/${id(token)}`,
    }),
    acceptInvite: build.mutation<Family, string>({
      query: (token) => ({ url: `/api/invites/${id(token)}/accept`, method: 'POST' }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    getMySecretSanta: build.query<SecretSantaMatch, string>({
      query: (familyId) => `/api/families/${id(familyId)}/secret-santa`,
      providesTags: (_r, _e, familyId) => [{ type: 'SecretSanta', id: familyId }],
    }),
    planSecretSanta: build.mutation<{ drawOn: string | null }, { familyId: string; drawOn: string | null }>({
      query: ({ familyId, drawOn }) => ({ url: `/api/families/${id(familyId)}/secret-santa`, method: 'PATCH', body: { drawOn } }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    drawSecretSanta: build.mutation<DrawResult, { familyId: string } & DrawRequest>({
      query: ({ familyId, ...body }) => ({ url: `/api/families/${id(familyId)}/secret-santa`, method: 'POST', body }),
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [{ type: 'SecretSanta', id: familyId }]),
    }),
  }),
});

export const {
  useGetFamiliesQuery,
  useCreateFamilyMutation,
  useInviteToFamilyMutation,
  useGetFamilyInvitesQuery,
  useRevokeInviteMutation,
  useRemoveMemberMutation,
  useSetMemberRoleMutation,
  useGetInviteQuery,
  useAcceptInviteMutation,
  useGetMySecretSantaQuery,
  useDrawSecretSantaMutation,
  usePlanSecretSantaMutation,
} = familiesApi;
