/** A four-colour "G" mark drawn for this project, to label the Google sign-in buttons. */
export function GoogleLogo() {
  return (
    <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false">
      <path d="M16.6 9.2c0-.6-.1-1.1-.2-1.6H9v3h4.3a3.7 3.7 0 0 1-1.6 2.4v2h2.6c1.5-1.4 2.3-3.4 2.3-5.8z" fill="#4285f4" />
      <path d="M9 17c2.2 0 4-.7 5.3-2l-2.6-2a4.8 4.8 0 0 1-7.2-2.5H1.8v2A8 8 0 0 0 9 17z" fill="#34a853" />
      <path d="M4.5 10.5a4.8 4.8 0 0 1 0-3v-2H1.8a8 8 0 0 0 0 7z" fill="#fbbc05" />
      <path d="M9 4.2c1.2 0 2.3.4 3.2 1.2l2.3-2.3A8 8 0 0 0 1.8 5.5l2.7 2A4.8 4.8 0 0 1 9 4.2z" fill="#ea4335" />
    </svg>
  );
}
