import { Link } from 'react-router';
import { useToast } from '../../../app/shell/notices';
import { errorMessage } from '../../../lib/apiError';
import { useGetFamilyChoicesQuery, useUpdateListMutation } from '../api';
import type { WishList } from '../types';

/** The new familyIds when one family is ticked or unticked. */
export function withFamily(familyIds: readonly string[], familyId: string, shared: boolean): string[] {
  const rest = familyIds.filter((id) => id !== familyId);
  return shared ? [...rest, familyId] : rest;
}

/** "Share with my families": one checkbox per family the owner is in (FAMILY.md: PATCH familyIds). */
export function ShareWithFamilies({ list }: { list: WishList }) {
  const toast = useToast();
  const { data: families, isLoading, error } = useGetFamilyChoicesQuery();
  const [update, updating] = useUpdateListMutation();

  async function toggle(familyId: string, name: string, shared: boolean) {
    try {
      await update({ id: list.id, familyIds: withFamily(list.familyIds, familyId, shared) }).unwrap();
      toast({ title: shared ? `Shared with ${name}` : `No longer shared with ${name}` });
    } catch (err) {
      toast({ title: 'Could not save', description: errorMessage(err), variant: 'destructive' });
    }
  }

  if (isLoading) return <p className="muted">Loading your families…</p>;
  if (error) return <p className="notice notice--warning">{errorMessage(error)}</p>;
  if (!families?.length) {
    return (
      <p className="muted">
        You are not in a family yet. <Link to="/family">Make one</Link> and everyone in it sees the lists you share with it.
      </p>
    );
  }
  return (
    <fieldset className="list-settings__families">
      <legend className="visually-hidden">Share with my families</legend>
      <p className="muted">Members see the list on their Family page (it gets a share link if it has none).</p>
      {families.map((family) => (
        <label key={family.id} className="list-settings__family">
          <input
            type="checkbox"
            checked={list.familyIds.includes(family.id)}
            disabled={updating.isLoading}
            onChange={(e) => toggle(family.id, family.name, e.target.checked)}
          />
          {family.name}
        </label>
      ))}
    </fieldset>
  );
}
