import { z } from 'zod';
import { defineCommand } from './command.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import { presentWidget } from '../widget/presenters.js';
import * as s from '../widget/schemas.js';
import { createWidget } from '../widget/widgets/create-widget.js';
import { deleteWidget } from '../widget/widgets/delete-widget.js';
import { listWidgets } from '../widget/widgets/list-widgets.js';
import { updateWidget } from '../widget/widgets/update-widget.js';

const boolText = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true');
/** `--origin` once or more: always a list. */
const originsFlag = z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), s.widgetSettingsFields.origins);

const settingsFlags = {
  color: s.widgetSettingsFields.color.optional(),
  greeting: s.widgetSettingsFields.greeting.optional(),
  teamName: s.widgetSettingsFields.teamName.optional(),
  launcherSide: s.widgetSettingsFields.launcherSide.optional(),
  attachments: boolText.optional(),
  handoffText: s.widgetSettingsFields.handoffText.optional(),
  verificationRequired: boolText.optional(),
};
const SETTINGS_USAGE = '[--color #rrggbb] [--greeting T] [--team-name T] [--launcher-side left|right] [--attachments true|false] [--handoff-text T] [--verification-required true|false]';

export const widgetCreate = defineCommand({
  name: 'widget create',
  usage: `widget create --agent agt_… --origin https://shop.example.com [--origin …] ${SETTINGS_USAGE}`,
  summary: 'create a help widget for an agent; prints its id, the snippet to paste and its identity secret (shown once)',
  flags: z.strictObject({ agent: z.string({ message: 'must be an agent id' }).max(40), origin: originsFlag, ...settingsFlags }),
  run: async ({ db, config }, f) => {
    const widget = await createWidget({
      db: db.prisma,
      input: {
        agentId: f.agent,
        origins: f.origin,
        ...settingsOf(f),
      },
    });
    const view = presentWidget(widget, publicOrigin(config));
    return { id: view.id, snippet: view.snippet, identitySecret: widget.identitySecret };
  },
});

/** The settings flags, named as the widget's settings. */
function settingsOf(f: { color?: string; greeting?: string; teamName?: string; launcherSide?: 'left' | 'right'; attachments?: boolean; handoffText?: string; verificationRequired?: boolean }) {
  return {
    color: f.color,
    greeting: f.greeting,
    teamName: f.teamName,
    launcherSide: f.launcherSide,
    attachmentsAllowed: f.attachments,
    handoffText: f.handoffText,
    verificationRequired: f.verificationRequired,
  };
}

export const widgetList = defineCommand({
  name: 'widget list',
  usage: 'widget list [--agent agt_…]',
  summary: 'list the help widgets (of one agent)',
  flags: z.strictObject({ agent: z.string({ message: 'must be an agent id' }).max(40).optional() }),
  run: async ({ db, config }, f) => ({ widgets: (await listWidgets({ db: db.prisma, agentId: f.agent })).map((w) => presentWidget(w, publicOrigin(config))) }),
});

export const widgetUpdate = defineCommand({
  name: 'widget update',
  usage: `widget update --id wdg_… [--origin … (replaces them all)] ${SETTINGS_USAGE}`,
  summary: 'change a help widget\'s settings',
  flags: z.strictObject({ id: s.widgetId, origin: originsFlag.optional(), ...settingsFlags }),
  run: async ({ db, config }, f) => {
    const widget = await updateWidget({
      db: db.prisma,
      widgetId: f.id,
      changes: {
        origins: f.origin,
        ...settingsOf(f),
      },
    });
    return presentWidget(widget, publicOrigin(config));
  },
});

export const widgetDelete = defineCommand({
  name: 'widget delete',
  usage: 'widget delete --id wdg_…',
  summary: 'delete a help widget (its snippet stops working at once)',
  flags: z.strictObject({ id: s.widgetId }),
  run: async ({ db }, f) => {
    await deleteWidget({ db: db.prisma, widgetId: f.id });
    return { id: f.id, deleted: true };
  },
});
