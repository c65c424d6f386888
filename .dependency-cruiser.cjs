// Kept true by CI (`npm run lint:deps`): imports run one way, from top to bottom, and no files
// import each other in a circle. Type-only imports count too: a cycle of types is still a knot.

/**
 * The modules of src/, bottom first. A module may import those of lower layers only: never a
 * higher one, nor another of its own layer (boards and answers know nothing of each other).
 * A module is a folder under src/, or a file directly in it.
 */
const LAYERS = [
  ['config'],
  ['platform'], // ground: http (errors, openapi, schemas, cors), db, ops; imports nothing but config
  ['mail'], // the mail outbox: record, compose, the worker that sends over SMTP
  ['accounts'], // users, sessions, keys, credential resolution and the guards
  ['workspaces'], // workspaces, members, the console context
  ['webhooks'], // the generic outbox: record, dispatch, sign, send, endpoints, console
  ['boards', 'answers'],
  ['tickets', 'notifications'], // notifications: what board changes tell people, in the app and by mail
  ['widget'], // the embeddable help widget: the agent on a customer's site, hand-offs into tickets
  ['connector', 'cli', 'web', 'health'],
  ['app'],
  ['server'],
];

const FILE_MODULES = new Set(['config', 'app', 'server']);
const pathOf = (m) => (FILE_MODULES.has(m) ? `^src/${m}\\.ts$` : `^src/${m}/`);

const layerRules = LAYERS.flatMap((layer, i) =>
  layer.flatMap((m) => {
    const notAllowed = [...LAYERS.slice(i + 1).flat(), ...layer.filter((peer) => peer !== m)];
    if (!notAllowed.length) return [];
    return {
      name: `layer-${m}`,
      comment: `${m} may import only modules below it: ${LAYERS.slice(0, i).flat().join(', ') || 'none'}`,
      severity: 'error',
      from: { path: pathOf(m) },
      to: { path: notAllowed.map(pathOf) },
    };
  }),
);

/**
 * Inside boards/ the same one-way rule, a level down (#33). The ground is what every part of
 * boards shares: the top-level files below (access, policy, rows, schemas, presenters, the card
 * change every card-part write goes through, …) and the folders activity/ (what follows a commit)
 * and json/ (card and board JSON built by PostgreSQL). A sub-domain (cards/, lists/, labels/, …,
 * and the board's own use cases, the other top-level files) stands on the ground only: it never
 * imports a sibling, so cards/ and checklists/ cannot import each other back. routes/ is the top.
 */
const BOARDS_GROUND = [
  '^src/boards/(access|carry-field-value|change-card-parts|context|drop-other-boards-parts|fit-field-value|lock-boards|lock-card|lock-labels-on-board|lock-lists|metrics|page-cursor|parse-due-date|policy|presenters|retry|rows|schemas|shift-positions|target-position|touch-cards)\\.ts$',
  '^src/boards/(activity|json)/',
];

const boardsRules = [
  {
    name: 'boards-ground-imports-ground',
    comment: "boards/'s ground (BOARDS_GROUND) imports nothing of boards but the ground: what a sub-domain shares moves down into it.",
    severity: 'error',
    from: { path: BOARDS_GROUND },
    to: { path: '^src/boards/', pathNot: BOARDS_GROUND },
  },
  {
    name: 'boards-sub-domains-stand-on-the-ground',
    comment: 'A boards/ sub-folder (cards/, lists/, …) imports its own files and the ground only: never a sibling (the board’s own use cases are in boards/boards/). Shared parts move down into the ground.',
    severity: 'error',
    from: { path: '^src/boards/(?!routes/|activity/|json/)([^/]+)/' },
    to: { path: '^src/boards/', pathNot: [...BOARDS_GROUND, '^src/boards/$1/'] },
  },
  {
    name: 'boards-use-cases-stand-on-the-ground',
    comment: "A top-level file of boards/ is ground or nothing: a use case lives in its sub-domain's folder (the board's own in boards/boards/).",
    severity: 'error',
    from: { path: '^src/boards/[^/]+\\.ts$', pathNot: BOARDS_GROUND },
    to: { path: '^src/boards/[^/]+/', pathNot: BOARDS_GROUND },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files that import each other (also through others) cannot be understood, tested or moved apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-imports-only-config',
      comment: 'platform is the ground every module stands on: it imports no module but config.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: ['^src/platform/', '^src/config\\.ts$', '^src/generated/'] },
    },
    {
      name: 'unknown-module',
      comment: 'A new folder under src/ needs its place in LAYERS (.dependency-cruiser.cjs) first.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/generated/', ...LAYERS.flat().map(pathOf)] },
      to: {},
    },
    {
      name: 'import-of-unknown-module',
      comment: 'A new folder under src/ needs its place in LAYERS (.dependency-cruiser.cjs) first.',
      severity: 'error',
      from: {},
      to: { path: '^src/', pathNot: ['^src/generated/', ...LAYERS.flat().map(pathOf)] },
    },
    {
      name: 'answers-request-path-without-learning',
      comment:
        "answers/ is laid out along the answer's path: retrieval/, then decision/, then the use case (compose-answer). Verdicts and refits (learning/) change the stored model; the request path only reads it, so nothing but learning/ and the routes that take verdicts imports them.",
      severity: 'error',
      from: { path: '^src/answers/', pathNot: ['^src/answers/learning/', '^src/answers/routes/insights\\.ts$'] },
      to: { path: '^src/answers/learning/' },
    },
    {
      name: 'answers-retrieval-below-decision',
      comment: 'Retrieval ranks articles and measures how well they cover the message; what to do with that (decision/, the use case) is above it.',
      severity: 'error',
      from: { path: '^src/answers/retrieval/' },
      to: { path: ['^src/answers/decision/', '^src/answers/learning/', '^src/answers/compose-answer\\.ts$', '^src/answers/conversations/'] },
    },
    ...layerRules,
    ...boardsRules,
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] },
  },
};
