import { useTranslation } from 'react-i18next';
import { useId, type ReactNode } from 'react';

interface FieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** A labelled form field with its hint and error wired to the control for assistive tech. */
export function Field({ label, error, hint, optional, children }: FieldProps) {
  const id = useId();
  const { t } = useTranslation('common');
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        {optional && <span className="field__optional"> {t('field.optional')}</span>}
      </label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'>;

interface TextFieldProps extends Omit<FieldProps, 'children'>, InputProps {
  value: string;
  onValue: (value: string) => void;
}

/** A Field holding one text input (`type`, `autoComplete`, `placeholder`… pass through). */
export function TextField({ label, error, hint, optional, value, onValue, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} optional={optional}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input"
          aria-invalid={invalid}
          aria-describedby={describedBy}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          {...input}
        />
      )}
    </Field>
  );
}
