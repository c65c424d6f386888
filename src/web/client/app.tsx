import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, get, onSessionEnded, post } from './api';
import { link, navigate, safeNext, useLocation } from './router';
import { SessionContext } from './session';
import type { User } from './types';
import { Alert, Notice, setDateSettings } from './ui';
import { AccountPage } from './pages/account';
import { AdminPage } from './pages/admin';
import { AppsPage } from './pages/apps';
import { BoardPage } from './board/board-page';
import { BoardsPage } from './pages/boards';
import { JoinPage } from './pages/join';
import { ReplyPage } from './pages/reply';
import { KeysPage } from './pages/keys';
import { SetupPage } from './pages/setup';
import { SignInPage } from './pages/signin';
import { SupportPage } from './support/support-page';
import { NotificationBell } from './notifications/bell';
import { MailLogPage } from './notifications/mail-log-page';
import { NotificationsPage } from './notifications/notifications-page';
import { UnsubscribePage } from './notifications/unsubscribe-page';

type State = { kind: 'loading' } | { kind: 'setup' } | { kind: 'signed-out'; notice?: string } | { kind: 'signed-in'; user: User } | { kind: 'error'; error: unknown };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const { path, query } = useLocation();

  // A visitor is not an error: /auth/session answers 200 with user null (no 401 in the console).
  const probe = useCallback(async () => {
    try {
      const { user, setupNeeded } = await get<{ user: User | null; setupNeeded: boolean }>('/auth/session');
      setState(user ? { kind: 'signed-in', user } : setupNeeded ? { kind: 'setup' } : { kind: 'signed-out' });
    } catch (error) {
      setState({ kind: 'error', error });
    }
  }, []);
  const join = /^\/join\/([^/]+)$/.exec(path);
  const unsubscribe = /^\/unsubscribe\/([^/]+)$/.exec(path);
  const reply = /^\/reply\/([^/]+)$/.exec(path);

  useEffect(() => void probe(), [probe]);
  useEffect(
    () =>
      onSessionEnded(() =>
        setState((s) => (s.kind === 'signed-in' ? { kind: 'signed-out', notice: 'Your session has ended. Sign in again to continue.' } : s)),
      ),
    [],
  );

  // Keep the address honest: signed-out people are on /signin (remembering where they were going).
  useEffect(() => {
    if (join || unsubscribe || reply) return;
    if (state.kind === 'signed-out' && path !== '/signin') {
      const here = path + location.search;
      navigate(here === '/' ? '/signin' : `/signin?next=${encodeURIComponent(here)}`, { replace: true });
    }
    if (state.kind === 'setup' && path !== '/setup') navigate('/setup', { replace: true });
    if (state.kind === 'signed-in' && (path === '/' || path === '/signin' || path === '/setup')) {
      const next = safeNext(query.get('next'));
      if (next && path === '/signin') location.assign(next);
      else navigate('/boards', { replace: true });
    }
  }, [state, path]);

  const signedIn = (user: User) => {
    const next = safeNext(new URLSearchParams(location.search).get('next'));
    // `next` may be a server page (the connector's consent page), so leave by a real navigation.
    if (next) location.assign(next);
    else {
      setState({ kind: 'signed-in', user });
      navigate('/boards', { replace: true });
    }
  };

  // A team reply mail's link: the customer has no account here (the link is the proof).
  if (reply) return <ReplyPage token={decodeURIComponent(reply[1]!)} />;
  if (state.kind === 'loading') return <p class="boot">Loading…</p>;
  // An invitation or set-up link: its own page, signed in or not (using it signs in as the new account).
  // A notification mail's unsubscribe link: works signed in or not (the token is the proof).
  if (unsubscribe) return <UnsubscribePage token={decodeURIComponent(unsubscribe[1]!)} />;
  if (join) return <JoinPage token={decodeURIComponent(join[1]!)} signedInAs={state.kind === 'signed-in' ? state.user : null} />;
  if (state.kind === 'error')
    return (
      <main class="narrow">
        <Alert error={state.error} />
        <button type="button" onClick={probe}>
          Try again
        </button>
      </main>
    );
  if (state.kind === 'setup') return <SetupPage onDone={signedIn} />;
  if (state.kind === 'signed-out') return <SignInPage notice={state.notice} onSignedIn={signedIn} />;

  const signOut = async () => {
    try {
      await post('/auth/logout', undefined, { quiet401: true });
    } catch {
      // Already ended: signing out is done either way.
    }
    setState({ kind: 'signed-out' });
    navigate('/signin', { replace: true });
  };
  // Every date shown from here on is in the account's zone and clock (null: the browser's).
  setDateSettings({ timeZone: state.user.timeZone, hour12: state.user.hour12 });
  return (
    <SessionContext.Provider value={{ user: state.user, signOut, updateUser: (user: User) => setState({ kind: 'signed-in', user }) }}>
      <Shell user={state.user} path={path} signOut={signOut}>
        <Route path={path} user={state.user} />
      </Shell>
    </SessionContext.Provider>
  );
}

function Route({ path, user }: { path: string; user: User }) {
  const board = /^\/boards\/(\d+)\/?$/.exec(path);
  if (board) return <BoardPage key={board[1]} boardId={Number(board[1])} />;
  if (path === '/boards') return <BoardsPage />;
  if (path === '/support' || path.startsWith('/support/')) return <SupportPage path={path} />;
  if (path === '/settings/keys') return <KeysPage />;
  if (path === '/settings/apps') return <AppsPage />;
  if (path === '/settings/account') return <AccountPage />;
  if (path === '/notifications') return <NotificationsPage />;
  if (path === '/site-admin/mail') return user.siteAdmin ? <MailLogPage /> : <NotFound message="Only site administrators can see this page." />;
  if (path === '/site-admin') return user.siteAdmin ? <AdminPage /> : <NotFound message="Only site administrators can see this page." />;
  if (path === '/' || path === '/signin' || path === '/setup') return null;
  return <NotFound />;
}

function NotFound({ message = 'There is no page here.' }: { message?: string }) {
  return (
    <main class="narrow">
      <h1>Not found</h1>
      <Notice>{message}</Notice>
      <a href="/boards" onClick={link('/boards')}>
        Back to your boards
      </a>
    </main>
  );
}

function Shell({ user, path, signOut, children }: { user: User; path: string; signOut: () => Promise<void>; children: preact.ComponentChildren }) {
  // On a phone the links fold behind "Menu" (styles.css shows the button at phone width only); a link followed closes it.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  const item = (to: string, label: string) => (
    <li>
      <a href={to} onClick={link(to)} aria-current={path === to || path.startsWith(`${to}/`) ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class={menuOpen ? 'top menu-open' : 'top'}>
        <nav aria-label="Main">
          <a class="brand" href="/boards" onClick={link('/boards')}>
            Task boards
          </a>
          <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="main-menu" onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
          <ul id="main-menu">
            {item('/boards', 'Boards')}
            {item('/support', 'Support')}
            {item('/settings/keys', 'API keys')}
            {item('/settings/apps', 'Connected apps')}
            {user.siteAdmin && item('/site-admin', 'Users')}
            {user.siteAdmin && item('/site-admin/mail', 'Mail log')}
            {/* On a phone the header has no room for the name: the account is in the menu instead. */}
            <li class="phone-only">
              <a href="/settings/account" onClick={link('/settings/account')} aria-current={path === '/settings/account' ? 'page' : undefined}>
                Your account
              </a>
            </li>
          </ul>
        </nav>
        <div class="me">
          <NotificationBell path={path} />
          <a href="/settings/account" onClick={link('/settings/account')} title={`${user.email}: your account`} aria-current={path === '/settings/account' ? 'page' : undefined}>
            {user.name}
          </a>
          <button type="button" class="link" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <div id="main">{children}</div>
    </>
  );
}
