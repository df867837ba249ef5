import { useTranslation } from 'react-i18next';
import { useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { Field, TextField } from '../../../components/Field';
import { ImageIcon } from '../../../components/icons';
import { Spinner } from '../../../components/Spinner';
import { useToast } from '../../../app/shell/notices';
import { errorMessage, fieldErrors } from '../../../lib/apiError';
import { imageFileToDataUrl } from '../../../lib/imageFile';
import { uuid } from '../../../lib/ids';
import { usePageTitle } from '../../../lib/usePageTitle';
import { selectCurrentUser } from '../../../lib/session';
import { useAddWishlistItemMutation } from '../api';
import { CATEGORIES } from '../types';
import {
  EMPTY_ADD_ITEM,
  MESSAGES,
  toNewItem,
  validateAddItem,
  type AddItemErrors,
  type AddItemValues,
} from '../validation';
import { usePreviewUrl } from '../hooks/usePreviewUrl';
import { useAddFormImport, type ImportedFields } from '../addFormImport';
import '../../../components/filePicker.css';
import './wishlist.css';

const FIELD_ORDER: (keyof AddItemValues)[] = ['name', 'description', 'category', 'price', 'searchQuery', 'imageUrl'];
/** /text-prompt: add a gift to the wishlist by describing it. */
export default function AddItemPage() {
  const { t } = useTranslation('wishlist');
  const messages = useMemo(() => t('validation', { returnObjects: true }) as unknown as typeof MESSAGES, [t]);
  const validate = (v: AddItemValues) => validateAddItem(v, messages);
  usePageTitle(t('add.title'));
  const user = useAppSelector(selectCurrentUser);
  const navigate = useNavigate();
  const toast = useToast();
  const [addItem, { isLoading: submitting }] = useAddWishlistItemMutation();
  const [values, setValues] = useState<AddItemValues>(EMPTY_ADD_ITEM);
  const [errors, setErrors] = useState<AddItemErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [failedPreview, setFailedPreview] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const preview = usePreviewUrl(values.imageUrl);
  const fromDevice = values.imageUrl.startsWith('data:');
  const renderImport = useAddFormImport();

  /** An import (shop link, shared page, scanned code) fills the fields it knows. */
  function fill(fields: ImportedFields) {
    setValues((current) => {
      const next = { ...current };
      for (const [key, value] of Object.entries(fields) as [keyof ImportedFields, string | undefined][]) {
        if (value === undefined) continue;
        if (key === 'shoppingUrl' || value !== '') next[key] = value;
      }
      return next;
    });
  }

  function set<K extends keyof AddItemValues>(key: K, value: AddItemValues[K]) {
    const next = { ...values, [key]: value };
    setValues(next);
    // After the first submit, messages follow the typing; before it, they wait for blur.
    if (submitted) setErrors(validate(next));
    else if (errors[key]) setErrors((e) => ({ ...e, [key]: validate(next)[key] }));
  }

  /** What each text input of the form shares: its value, its error and how it changes. */
  const bind = (key: 'name' | 'price' | 'searchQuery' | 'imageUrl') => ({
    name: key,
    error: errors[key],
    value: values[key],
    onValue: (value: string) => set(key, value),
    autoComplete: 'off',
  });

  function onBlur(key: keyof AddItemValues) {
    if (!values[key]) return; // an untouched empty field is not an error until submit
    setErrors((e) => ({ ...e, [key]: validate(values)[key] }));
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ title: t('add.notImage'), variant: 'destructive' });
      return;
    }
    try {
      const dataUrl = await imageFileToDataUrl(file);
      set('imageUrl', dataUrl);
      toast({ title: t('add.uploaded') });
    } catch (err) {
      console.error('reading the chosen image failed', err);
      toast({ title: t('add.readFailed'), variant: 'destructive' });
    }
  }

  function onPreviewError() {
    setFailedPreview(preview);
    toast({ title: t('add.imageError'), description: t('add.imageErrorText'), variant: 'destructive' });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((k) => found[k]);
    if (firstInvalid) {
      form.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    if (!user) {
      toast({
        title: t('add.logIn'),
        description: t('add.logInText'),
        variant: 'destructive',
      });
      navigate('/firebase-login');
      return;
    }
    try {
      await addItem({ ...toNewItem(values, user.id), idempotencyKey: uuid() }).unwrap();
      toast({ title: t('add.success'), description: t('add.successText') });
      navigate('/wishlist');
    } catch (err) {
      if (err && typeof err === 'object' && 'status' in err && err.status === 401) {
        toast({
          title: t('add.logIn'),
          description: t('add.logInText'),
          variant: 'destructive',
        });
        navigate('/firebase-login');
        return;
      }
      setErrors((e) => ({ ...e, ...fieldErrors(err) }));
      toast({ title: t('error'), description: t('add.failed', { message: errorMessage(err) }), variant: 'destructive' });
    }
  }

  const showPreview = preview !== '' && preview !== failedPreview;

  return (
    <section className="page page--narrow" aria-labelledby="add-title">
      <div className="card">
        <h1 id="add-title" className="page__title">
          {t('add.title')}
        </h1>
        <p className="muted">{t('add.intro')}</p>
        <form ref={form} className="form" onSubmit={onSubmit} noValidate>
          {renderImport?.({ onFill: fill })}
          <TextField
            label={t('add.name')}
            placeholder={t('add.namePlaceholder')}
            {...bind('name')}
            onBlur={() => onBlur('name')}
          />
          <Field label={t('add.description')} error={errors.description}>
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                name="description"
                className="input textarea"
                rows={4}
                placeholder={t('add.descriptionPlaceholder')}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                value={values.description}
                onChange={(e) => set('description', e.target.value)}
                onBlur={() => onBlur('description')}
              />
            )}
          </Field>
          <Field label={t('add.category')} error={errors.category}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                name="category"
                className="input select"
                aria-invalid={invalid}
                aria-describedby={describedBy}
                value={values.category}
                onChange={(e) => set('category', e.target.value)}
              >
                <option value="">{t('add.chooseCategory')}</option>
                {CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {t(`categories.${c}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField label={t('add.price')} optional placeholder={t('add.pricePlaceholder')} inputMode="text" {...bind('price')} />
          <TextField
            label={t('add.keywords')}
            optional
            hint={t('add.keywordsHint')}
            {...bind('searchQuery')}
            onBlur={() => onBlur('searchQuery')}
          />
          {fromDevice ? (
            <div className="field">
              <p className="field__label">{t('add.image')}</p>
              <p className="chosen-image">
                <ImageIcon size={18} /> {t('add.imageFromDevice')}
                <button type="button" className="button button--link" onClick={() => set('imageUrl', '')}>
                  {t('add.removeImage')}
                </button>
              </p>
            </div>
          ) : (
            <TextField
              label={t('add.imageUrl')}
              optional
              type="url"
              placeholder="https://…"
              {...bind('imageUrl')}
              onBlur={() => onBlur('imageUrl')}
            />
          )}
          <div className="file-picker">
            <input id="item-image-file" type="file" accept="image/*" className="file-picker__input" onChange={onFile} />
            <label htmlFor="item-image-file" className="button button--outline button--block">
              <ImageIcon size={18} /> {t('add.chooseImage')}
            </label>
          </div>
          {showPreview && (
            <figure className="image-preview">
              <figcaption className="image-preview__title">{t('add.preview')}</figcaption>
              <img src={preview} alt={t('add.previewAlt')} onError={onPreviewError} />
            </figure>
          )}
          <div className="button-row form__actions">
            <button type="button" className="button button--outline" onClick={() => navigate('/')}>
              {t('add.cancel')}
            </button>
            <button type="submit" className="button button--primary" disabled={submitting}>
              {submitting && <Spinner size="small" label={t('add.adding')} />}
              {submitting ? t('add.addingText') : t('add.submit')}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
