import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { User } from './types';

export const SessionContext = createContext<{ user: User; signOut: () => Promise<void>; /** After the account page changes the name or address. */ updateUser: (user: User) => void } | null>(null);

export function useSession() {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
