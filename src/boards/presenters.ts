import type { BoardRole } from './policy.js';
import type { BoardView, MemberView } from './schemas.js';

export function presentBoard(
  b: { id: number; name: string; description: string; archived: boolean; createdAt: Date; updatedAt: Date },
  role: BoardRole,
): BoardView {
  return {
    id: b.id,
    name: b.name,
    description: b.description,
    archived: b.archived,
    role,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

export function presentMember(m: { userId: number; role: BoardRole; user: { name: string; email: string } }): MemberView {
  return { userId: m.userId, name: m.user.name, email: m.user.email, role: m.role };
}
