import { api } from '../../app/api';
import { apiRoute } from '../../lib/api/paths';
import { currentLanguage } from '../../lib/i18n';
import { uuid } from '../../lib/ids';
import type {
  Conversation,
  DrawRequest,
  DrawResult,
  ExchangePlan,
  ExchangePlanRequest,
  Family,
  FamilyCreated,
  Invite,
  InviteInfo,
  OpenInvite,
  SecretSantaMatch,
  SecretSantaMessage,
} from './types';

const FAMILIES = { type: 'Families' as const, id: 'ALL' };
/** A family's open invitations (admins), under the Families tag type with an id of their own. */
const invitesTag = (familyId: string) => ({ type: 'Families' as const, id: `invites:${familyId}` });
const matchTag = (familyId: string) => ({ type: 'SecretSanta' as const, id: familyId });
/** The live stream invalidates this one when a `secret-santa-message` arrives (features/live). */
const messagesTag = (familyId: string) => ({ type: 'SecretSantaMessages' as const, id: familyId });

export const familiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFamilies: build.query<Family[], void>({
      query: () => apiRoute('GET', '/api/families'),
      providesTags: [FAMILIES],
    }),
    createFamily: build.mutation<FamilyCreated, { name: string }>({
      query: (body) => ({ ...apiRoute('POST', '/api/families'), body }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    inviteToFamily: build.mutation<Invite, { familyId: string; email?: string }>({
      query: ({ familyId, email }) => ({
        ...apiRoute('POST', '/api/families/{id}/invites', { id: familyId }),
        // The email is written in the language the inviter sees the app in.
        body: email ? { email, language: currentLanguage() } : {},
      }),
      // A new link replaces the previous one; either way the list of open invitations changed.
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [invitesTag(familyId)]),
    }),
    getFamilyInvites: build.query<OpenInvite[], string>({
      query: (familyId) => apiRoute('GET', '/api/families/{id}/invites', { id: familyId }),
      providesTags: (_r, _e, familyId) => [invitesTag(familyId)],
    }),
    revokeInvite: build.mutation<void, { familyId: string; inviteId: string }>({
      query: ({ familyId, inviteId }) => apiRoute('DELETE', '/api/families/{id}/invites/{token}', { id: familyId, token: inviteId }),
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [invitesTag(familyId)]),
    }),
    removeMember: build.mutation<void, { familyId: string; uid: string }>({
      query: ({ familyId, uid }) => apiRoute('DELETE', '/api/families/{id}/members/{uid}', { id: familyId, uid }),
      // Leaving stops sharing one's lists with the family, and may cancel its draw.
      invalidatesTags: (_r, error, { familyId }) =>
        error ? [] : [FAMILIES, { type: 'Lists', id: 'ALL' }, { type: 'SecretSanta', id: familyId }],
    }),
    setMemberRole: build.mutation<Family, { familyId: string; uid: string; role: 'admin' | 'member' }>({
      query: ({ familyId, uid, role }) => ({
        ...apiRoute('PATCH', '/api/families/{id}/members/{uid}', { id: familyId, uid }),
        body: { role },
      }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    getInvite: build.query<InviteInfo, string>({
      query: (token) => apiRoute('GET', '/api/invites/{token}', { token }),
    }),
    acceptInvite: build.mutation<Family, string>({
      query: (token) => apiRoute('POST', '/api/invites/{token}/accept', { token }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    getMySecretSanta: build.query<SecretSantaMatch, string>({
      query: (familyId) => apiRoute('GET', '/api/families/{id}/secret-santa', { id: familyId }),
      providesTags: (_r, _e, familyId) => [matchTag(familyId)],
    }),
    planSecretSanta: build.mutation<{ drawOn: string | null }, { familyId: string; drawOn: string | null }>({
      query: ({ familyId, drawOn }) => ({
        ...apiRoute('PATCH', '/api/families/{id}/secret-santa', { id: familyId }),
        body: { drawOn },
      }),
      invalidatesTags: (_r, error) => (error ? [] : [FAMILIES]),
    }),
    drawSecretSanta: build.mutation<DrawResult, { familyId: string } & DrawRequest>({
      query: ({ familyId, ...body }) => ({ ...apiRoute('POST', '/api/families/{id}/secret-santa', { id: familyId }), body }),
      // A new draw starts both conversations afresh.
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [matchTag(familyId), messagesTag(familyId)]),
    }),
    planExchange: build.mutation<ExchangePlan, { familyId: string } & ExchangePlanRequest>({
      query: ({ familyId, ...body }) => ({ ...apiRoute('PATCH', '/api/families/{id}/secret-santa', { id: familyId }), body }),
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [matchTag(familyId)]),
    }),
    getSecretSantaMessages: build.query<SecretSantaMessage[], string>({
      query: (familyId) => apiRoute('GET', '/api/families/{id}/secret-santa/messages', { id: familyId }),
      providesTags: (_r, _e, familyId) => [messagesTag(familyId)],
    }),
    sendSecretSantaMessage: build.mutation<
      SecretSantaMessage,
      { familyId: string; to: Conversation; text: string; idempotencyKey?: string }
    >({
      query: ({ familyId, to, text, idempotencyKey }) => ({
        ...apiRoute('POST', '/api/families/{id}/secret-santa/messages', { id: familyId }),
        // One key per draft: a double tap or a retry after a lost answer sends the message once.
        headers: { 'Idempotency-Key': idempotencyKey ?? uuid() },
        body: { to, text },
      }),
      invalidatesTags: (_r, error, { familyId }) => (error ? [] : [messagesTag(familyId)]),
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
  usePlanExchangeMutation,
  useGetSecretSantaMessagesQuery,
  useSendSecretSantaMessageMutation,
} = familiesApi;
