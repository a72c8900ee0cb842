import { useId } from "react";
import { cn } from "#web/lib/utils";

/** FNV-1a with a final avalanche step: a small, stable hash, so a name always gets the same colours. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  // FNV's low bits are poorly mixed; without this, similar names land on neighbouring hues.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = Array.from(words[0] ?? "?")[0] ?? "?";
  const last = words.length > 1 ? (Array.from(words[words.length - 1] ?? "")[0] ?? "") : "";
  return `${first}${last}`.toUpperCase();
}

/**
 * Two hues derived from the name. OKLCH keeps the lightness even across hues, so white initials stay
 * above 4.5:1 on every gradient, in light and dark mode alike.
 */
export function avatarColors(name: string): [string, string] {
  const hash = hashName(name);
  const hue = hash % 360;
  const shift = 40 + ((hash >>> 9) % 80);
  return [`oklch(0.5 0.16 ${hue})`, `oklch(0.42 0.14 ${(hue + shift) % 360})`];
}

/** A generated avatar: the person's initials on a gradient circle. No image is downloaded. */
export function InitialsAvatar({
  name,
  size = 96,
  className,
}: {
  name: string;
  size?: number;
  className?: string;
}) {
  const gradientId = useId();
  const [from, to] = avatarColors(name);
  return (
    <svg
      role="img"
      aria-label={`Avatar of ${name}`}
      width={size}
      height={size}
      viewBox="0 0 100 100"
      className={cn("shrink-0 rounded-full", className)}
      data-testid="avatar"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" style={{ stopColor: from }} />
          <stop offset="100%" style={{ stopColor: to }} />
        </linearGradient>
      </defs>
      {/* React's ids (`_r_1_`) are valid in a URL fragment as they are; `CSS` does not exist on the server. */}
      <circle cx="50" cy="50" r="50" fill={`url(#${gradientId})`} />
      <text
        x="50"
        y="50"
        dy="0.35em"
        textAnchor="middle"
        fill="#fff"
        fontSize="36"
        fontWeight="700"
        fontFamily="ui-sans-serif, system-ui, sans-serif"
        letterSpacing="1"
      >
        {initialsOf(name)}
      </text>
    </svg>
  );
}
