/** Line icons drawn for this project (24×24, stroke = currentColor). Decorative unless labelled. */
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Svg({ size = 24, children, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

/** An icon drawn with paths only. */
function pathIcon(...paths: string[]) {
  return function PathIcon(p: IconProps) {
    return (
      <Svg {...p}>
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </Svg>
    );
  };
}

export const HomeIcon = pathIcon('M3 11.5 12 4l9 7.5', 'M5.5 10v9.5h5V14h3v5.5h5V10');

export const CameraIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 7.5h3.2L9 5h6l1.8 2.5H20a1 1 0 0 1 1 1V18a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8.5a1 1 0 0 1 1-1z" />
    <circle cx="12" cy="13" r="3.5" />
  </Svg>
);

export const BagIcon = pathIcon('M5 8h14l-1 12H6L5 8z', 'M9 10V7a3 3 0 0 1 6 0v3');

export const ListIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <circle cx="4.5" cy="6" r="1" />
    <circle cx="4.5" cy="12" r="1" />
    <circle cx="4.5" cy="18" r="1" />
  </Svg>
);

export const BarcodeIcon = pathIcon('M4 6v12M7 6v12M10 6v12M14 6v12M17 6v12M20 6v12');

export const PencilIcon = pathIcon('M4 20h4L19 9l-4-4L4 16v4z', 'M13.5 6.5l4 4');

export const PlusIcon = pathIcon('M12 5v14M5 12h14');

export const TrashIcon = pathIcon('M4 7h16M10 11v6M14 11v6', 'M6 7l1 13h10l1-13M9 7V4h6v3');

export const CartIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 4h2l2.4 11h10.2L20 8H6.2" />
    <circle cx="9" cy="19" r="1.5" />
    <circle cx="17" cy="19" r="1.5" />
  </Svg>
);

export const CloseIcon = pathIcon('M6 6l12 12M18 6 6 18');

export const BellIcon = pathIcon('M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2z', 'M10 20a2 2 0 0 0 4 0');

export const LogOutIcon = pathIcon('M10 4H5v16h5', 'M15 8l4 4-4 4M19 12H9');

export const GiftIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3.5" y="9" width="17" height="11" rx="1" />
    <path d="M2.5 9h19M12 9v11" />
    <path d="M12 9c-2-4-6-4-6-1.5S10 9 12 9zM12 9c2-4 6-4 6-1.5S14 9 12 9z" />
  </Svg>
);

export const ImageIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="8.5" cy="9.5" r="1.5" />
    <path d="M21 16l-5-5-9 9" />
  </Svg>
);

export const SnowflakeIcon = pathIcon('M12 2v20M3.3 7l17.4 10M3.3 17 20.7 7', 'M9.5 3.5 12 6l2.5-2.5M9.5 20.5 12 18l2.5 2.5');

export const AlertIcon = pathIcon('M12 3 2 20h20L12 3z', 'M12 10v4M12 17.5v.01');

export const LockIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="5" y="11" width="14" height="9" rx="1.5" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </Svg>
);

export const ArrowLeftIcon = pathIcon('M19 12H5M11 6l-6 6 6 6');

/* Category icons (docs/spec.md, section 2 'My Wishlist': electronics, clothing, toys, home, books, other). */
export const ElectronicsIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="18" height="12" rx="1.5" />
    <path d="M8 20h8M12 16v4" />
  </Svg>
);

export const ClothingIcon = pathIcon('M8 3 3 6l2 4 2-1v12h10V9l2 1 2-4-5-3a4 4 0 0 1-8 0z');

export const ToysIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="7" cy="6" r="2.5" />
    <circle cx="17" cy="6" r="2.5" />
    <circle cx="12" cy="12" r="6" />
    <path d="M10 11v.01M14 11v.01M10.5 14.5c1 .8 2 .8 3 0" />
  </Svg>
);

export const HomeGoodsIcon = pathIcon('M5 11h14v5H5z', 'M3 11a2 2 0 0 1 4 0M17 11a2 2 0 0 1 4 0M3 11v7h18v-7M6 18v2M18 18v2', 'M6 11V7a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v4');

export const BookIcon = pathIcon('M4 5.5A2.5 2.5 0 0 1 6.5 3H20v15H6.5A2.5 2.5 0 0 0 4 20.5z', 'M4 20.5A2.5 2.5 0 0 0 6.5 23H20v-5');

/** Santa's face, filled: used on the overlay and the logo. */
export function SantaIcon({ size = 96, ...rest }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 96 96" aria-hidden="true" focusable="false" {...rest}>
      <path d="M18 40C22 14 52 6 74 22l8 20H18z" fill="#d42426" />
      <circle cx="84" cy="44" r="7" fill="#fff" />
      <rect x="14" y="38" width="66" height="12" rx="6" fill="#fff" />
      <circle cx="47" cy="60" r="18" fill="#f6c9a8" />
      <circle cx="40" cy="57" r="2.4" fill="#2b2b2b" />
      <circle cx="54" cy="57" r="2.4" fill="#2b2b2b" />
      <circle cx="47" cy="63" r="3.2" fill="#e88a7a" />
      <path d="M24 62c2 22 16 30 23 30s21-8 23-30c-6 6-14 8-23 8s-17-2-23-8z" fill="#fff" />
      <path d="M38 70c5-4 13-4 18 0-5 2-13 2-18 0z" fill="#f2f2f2" stroke="#ddd" />
    </svg>
  );
}

/** Two people, side by side: the family. */
export const FamilyIcon = pathIcon('M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z', 'M2.5 20a6.5 6.5 0 0 1 13 0', 'M16 4.2a3.5 3.5 0 0 1 0 6.6M18 14a6.5 6.5 0 0 1 3.5 6');

export const MoonIcon = pathIcon('M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z');

export const CalendarIcon = pathIcon('M4 6h16v14H4z', 'M4 10h16M8 3v4M16 3v4');
