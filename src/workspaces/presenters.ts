import type { WorkspaceView } from './schemas.js';

export function presentWorkspace(w: {
  id: number;
  name: string;
  role: 'owner' | 'admin' | 'member';
  conversationLimit: number | null;
  createdAt: Date;
}): WorkspaceView {
  return { id: w.id, name: w.name, role: w.role, conversationLimit: w.conversationLimit, createdAt: w.createdAt.toISOString() };
}
