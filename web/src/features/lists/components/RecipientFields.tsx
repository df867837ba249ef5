import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field, TextField } from '../../../components/Field';
import { MAX_RECIPIENT_NAME, type FamilyPerson } from '../types';

export type RecipientKind = 'self' | 'person' | 'member';

export interface RecipientValues {
  kind: RecipientKind;
  /** The name of someone without an account. */
  name: string;
  /** The uid of the family member the list is for. */
  uid: string;
}

interface Props {
  values: RecipientValues;
  onChange: (values: RecipientValues) => void;
  /** The people of the caller's families (undefined while they load). */
  people: FamilyPerson[] | undefined;
  error?: string;
}

const KINDS: RecipientKind[] = ['self', 'person', 'member'];

/** "Who is this list for?": me, someone without an account (a name), or someone of my families. */
export function RecipientFields({ values, onChange, people, error }: Props) {
  const { t } = useTranslation('lists');
  return (
    <>
      <fieldset className="recipient-fields">
        <legend className="field__label">{t('recipient.question')}</legend>
        {KINDS.map((kind) => (
          <label key={kind} className="recipient-fields__option">
            <input
              type="radio"
              name="recipient-kind"
              value={kind}
              checked={values.kind === kind}
              onChange={() => onChange({ ...values, kind })}
            />
            <span>
              {t(`recipient.${kind}`)}
              <span className="recipient-fields__hint">{t(`recipient.${kind}Hint`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {values.kind === 'person' && (
        <TextField
          label={t('recipient.personName')}
          placeholder={t('recipient.personPlaceholder')}
          value={values.name}
          onValue={(name) => onChange({ ...values, name })}
          maxLength={MAX_RECIPIENT_NAME}
          autoComplete="off"
          error={error}
        />
      )}
      {values.kind === 'member' &&
        (people && people.length === 0 ? (
          <p className="notice notice--warning" role={error ? 'alert' : undefined}>
            {t('recipient.nobody')} <Link to="/family">{t('recipient.toFamily')}</Link>
          </p>
        ) : (
          <Field label={t('recipient.memberLabel')} error={error}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                className="input select"
                value={values.uid}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                disabled={!people}
                onChange={(e) => onChange({ ...values, uid: e.target.value })}
              >
                <option value="">{people ? t('recipient.choose') : t('recipient.loading')}</option>
                {people?.map((p) => (
                  <option key={p.uid} value={p.uid}>
                    {p.displayName}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
    </>
  );
}
