import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { chooseLanguage, LANGUAGE_NAMES, LANGUAGES, useLanguage } from '../lib/i18n';
import { avatarLetter, menuName, type CurrentUser } from '../lib/session';
import { chooseTheme, useTheme } from '../lib/theme';
import { saveNotificationLanguage } from '../lib/notificationLanguage';
import { BellIcon, FamilyIcon, GiftIcon, LockIcon, LogOutIcon, MoonIcon } from './icons';
import './AvatarMenu.css';

interface AvatarMenuProps {
  user: CurrentUser;
  onLogout: () => void;
}

/** The signed-in user's avatar button and its menu (name, email, dark mode, language, 'Log Out'). */
export function AvatarMenu({ user, onLogout }: AvatarMenuProps) {
  const [open, setOpen] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const name = menuName(user);
  const theme = useTheme();
  const language = useLanguage();
  const { t } = useTranslation('common');

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="avatar-menu" ref={root}>
      <button
        type="button"
        className="avatar"
        aria-label={t('avatar.menuFor', { name })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {user.avatar && !imageFailed ? (
          <img src={user.avatar} alt="" className="avatar__image" onError={() => setImageFailed(true)} />
        ) : (
          <span className="avatar__letter" aria-hidden="true">
            {avatarLetter(user)}
          </span>
        )}
      </button>
      {open && (
        <div className="avatar-menu__panel" id={menuId} role="menu" aria-label={t('avatar.menu')}>
          <div className="avatar-menu__who">
            <p className="avatar-menu__name">{name}</p>
            <p className="avatar-menu__email">{user.email || t('avatar.noEmail')}</p>
          </div>
          <Link to="/claims" role="menuitem" className="avatar-menu__item" onClick={() => setOpen(false)}>
            <GiftIcon size={18} /> {t('avatar.claims')}
          </Link>
          <Link to="/gifts/given" role="menuitem" className="avatar-menu__item" onClick={() => setOpen(false)}>
            <GiftIcon size={18} /> {t('avatar.given')}
          </Link>
          <Link to="/family" role="menuitem" className="avatar-menu__item" onClick={() => setOpen(false)}>
            <FamilyIcon size={18} /> {t('avatar.families')}
          </Link>
          <Link to="/settings/notifications" role="menuitem" className="avatar-menu__item" onClick={() => setOpen(false)}>
            <BellIcon size={18} /> {t('avatar.notifications')}
          </Link>
          <Link to="/account" role="menuitem" className="avatar-menu__item" onClick={() => setOpen(false)}>
            <LockIcon size={18} /> {t('avatar.account')}
          </Link>
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={theme === 'dark'}
            className="avatar-menu__item"
            onClick={() => chooseTheme(theme === 'dark' ? 'light' : 'dark')}
          >
            <MoonIcon size={18} /> {t('avatar.darkMode')}
          </button>
          <div role="group" aria-label={t('language.label')} className="avatar-menu__languages">
            {LANGUAGES.map((lng) => (
              <button
                key={lng}
                type="button"
                role="menuitemradio"
                aria-checked={language === lng}
                lang={lng}
                className="avatar-menu__language"
                onClick={() => {
                  void chooseLanguage(lng);
                  saveNotificationLanguage(lng); // emails follow the app's language
                }}
              >
                {LANGUAGE_NAMES[lng]}
              </button>
            ))}
          </div>
          <button
            type="button"
            role="menuitem"
            className="avatar-menu__item"
            onClick={() => {
              setOpen(false);
              onLogout();
            }}
          >
            <LogOutIcon size={18} /> {t('avatar.logOut')}
          </button>
        </div>
      )}
    </div>
  );
}
