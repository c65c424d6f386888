import type { Widget } from '../generated/prisma/client.js';
import type { WidgetView } from './schemas.js';

/** The tag a site pastes into its pages: the script from this server, the widget's public id. */
export function widgetSnippet(baseUrl: string, widgetId: string): string {
  return `<script src="${baseUrl.replace(/\/$/, '')}/widget.js" data-widget="${widgetId}" async></script>`;
}

/** A widget as the console and the CLI show it: never its identity secret. */
export function presentWidget(w: Widget, baseUrl: string): WidgetView {
  return {
    id: w.id,
    workspaceId: w.workspaceId,
    agentId: w.agentId,
    origins: w.origins,
    color: w.color,
    greeting: w.greeting,
    teamName: w.teamName,
    launcherSide: w.launcherSide,
    attachmentsAllowed: w.attachmentsAllowed,
    handoffText: w.handoffText,
    verificationRequired: w.verificationRequired,
    snippet: widgetSnippet(baseUrl, w.id),
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** What the widget script reads from the host page: its look and words, nothing private. */
export function presentPublicWidget(w: Widget) {
  return {
    id: w.id,
    color: w.color,
    greeting: w.greeting,
    teamName: w.teamName,
    launcherSide: w.launcherSide,
    attachmentsAllowed: w.attachmentsAllowed,
    handoffText: w.handoffText,
    verificationRequired: w.verificationRequired,
  };
}
