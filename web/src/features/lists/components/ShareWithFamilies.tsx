import { useTranslation } from 'react-i18next';
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

/** "Share with my families": one checkbox per family the owner is in (PATCH familyIds). */
export function ShareWithFamilies({ list }: { list: WishList }) {
  const { t } = useTranslation('lists');
  const toast = useToast();
  const { data: families, isLoading, error } = useGetFamilyChoicesQuery();
  const [update, updating] = useUpdateListMutation();

  async function toggle(familyId: string, name: string, shared: boolean) {
    try {
      await update({ id: list.id, familyIds: withFamily(list.familyIds, familyId, shared) }).unwrap();
      toast({ title: shared ? t('families.shared', { name }) : t('families.unshared', { name }) });
    } catch (err) {
      toast({ title: t('families.saveFailed'), description: errorMessage(err), variant: 'destructive' });
    }
  }

  if (isLoading) return <p className="muted">{t('families.loading')}</p>;
  if (error) return <p className="notice notice--warning">{errorMessage(error)}</p>;
  if (!families?.length) {
    return (
      <p className="muted">
        {t('families.none')} <Link to="/family">{t('families.make')}</Link> {t('families.noneAfter')}
      </p>
    );
  }
  return (
    <fieldset className="list-settings__families">
      <legend className="visually-hidden">{t('families.heading')}</legend>
      <p className="muted">{t('families.hint')}</p>
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
