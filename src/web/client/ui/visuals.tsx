import type { IconNode } from 'lucide';
import type { ComponentChildren } from 'preact';
import { createElement } from 'preact';
import { avatarColour, initials } from './format';

/**
 * One icon set, Lucide's (ISC): each icon is imported by name from 'lucide', whose modules have
 * no side effects, so esbuild bundles only the icons used. Drawn as inline SVG in currentColor;
 * decorative (aria-hidden): the button or badge around it carries the words.
 */
export function Icon({ icon, size = 16, class: className }: { icon: IconNode; size?: number; class?: string }) {
  return (
    <svg
      class={className ? `icon ${className}` : 'icon'}
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {icon.map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs }))}
    </svg>
  );
}

/**
 * A person: their uploaded picture, else their initials on their colour (the same colour
 * everywhere). Named by the person's name, unless `decorative` (when the name is written beside it).
 */
export function Avatar({ userId, name, url, size = 'small', decorative = false }: { userId: number; name: string; url: string | null | undefined; size?: 'small' | 'large'; decorative?: boolean }) {
  const sizeClass = size === 'large' ? ' large' : '';
  const px = size === 'large' ? 72 : 24;
  if (url) return <img class={`avatar picture${sizeClass}`} src={url} alt={decorative ? '' : name} title={name} width={px} height={px} />;
  return (
    <span class={`avatar ${avatarColour(userId)}${sizeClass}`} title={name} {...(decorative ? { 'aria-hidden': 'true' } : { role: 'img', 'aria-label': name })}>
      {initials(name)}
    </span>
  );
}

/** What an empty page or list says: what is (not) here yet and the first thing to do. */
export function EmptyState({ icon, title, children, testId }: { icon: IconNode; title: string; children?: ComponentChildren; testId?: string }) {
  return (
    <div class="empty-state" data-testid={testId ?? 'empty-state'}>
      <Icon icon={icon} size={28} />
      <p class="empty-title">{title}</p>
      {children && <div class="empty-what">{children}</div>}
    </div>
  );
}
