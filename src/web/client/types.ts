/**
 * The shapes the client receives, taken from the server's own response schemas (`import type`:
 * esbuild erases these imports, so no server code reaches the bundle). A change to a response
 * schema shows up here as a type error in the code that reads it, not as a silent drift.
 */
import type { z } from 'zod';
import type { apiKey, joinLink, session, user, userStatus } from '../../accounts/schemas.js';
import type { activity, activityPage, ActivityType } from '../../boards/activity/activity-types.js';
import type {
  attachment,
  board,
  BOARD_COLORS as SERVER_BOARD_COLORS,
  boardDetail,
  card,
  cardSummary,
  checklist,
  comment,
  customField,
  invitationWithLink,
  FIELD_TYPES as SERVER_FIELD_TYPES,
  item,
  label,
  LABEL_COLORS as SERVER_LABEL_COLORS,
  member,
  pendingInvitation,
  role,
} from '../../boards/schemas.js';

export type User = z.output<typeof user>;
export type UserStatus = z.output<typeof userStatus>;
/**
 * A user as GET /admin/users lists them. The route extends the user schema inline
 * (src/accounts/routes/admin.ts), so the added fields are written out here.
 */
export type AdminUser = User & { status: UserStatus; createdAt: string; passwordSet: boolean };
/** A signed-in web session (GET /account/sessions). */
export type Session = z.output<typeof session>;
/** What an invitation or account set-up link opens (GET /auth/join/{token}). */
export type JoinLink = z.output<typeof joinLink>;
export type Role = z.output<typeof role>;

/** A board as GET /api/boards lists it. */
export type BoardSummary = z.output<typeof board>;
export type CardSummary = z.output<typeof cardSummary>;
export type Item = z.output<typeof item>;
export type Checklist = z.output<typeof checklist>;
export type Comment = z.output<typeof comment>;
export type Attachment = z.output<typeof attachment>;
/** A card with its checklists, newest comments and attachments (GET /api/cards/{id}). */
export type Card = z.output<typeof card>;
export type Label = z.output<typeof label>;
export type CustomField = z.output<typeof customField>;
export type FieldType = CustomField['type'];
export type Member = z.output<typeof member>;
export type PendingInvitation = z.output<typeof pendingInvitation>;
/** A new invitation (or a new link for one), with the link to hand over: shown once. */
export type InvitationWithLink = z.output<typeof invitationWithLink>;
/** A whole board: its lists with their cards, labels, custom fields and members (GET /api/boards/{id}). */
export type Board = z.output<typeof boardDetail>;
export type List = Board['lists'][number];

/** One change to a board, from the activity log or the live stream: `data` is typed by `type`. */
export type Activity = z.output<typeof activity>;
export type ActivityPage = z.output<typeof activityPage>;
export type { ActivityType };

export type ApiKey = z.output<typeof apiKey>;

// Values cannot be imported from the server (they would bundle it); typed as the server's
// tuples, these copies fail to compile the moment they differ from them in any way.
export const LABEL_COLORS: typeof SERVER_LABEL_COLORS = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black'];
export const FIELD_TYPES: typeof SERVER_FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'list'];
export const BOARD_COLORS: typeof SERVER_BOARD_COLORS = ['blue', 'teal', 'green', 'lime', 'orange', 'red', 'pink', 'purple', 'grey', 'sunset', 'ocean', 'forest'];
export type BoardColor = BoardSummary['color'];
