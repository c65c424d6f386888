import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` });

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL` },
  );

/** "5s,5m,30m,2h" → milliseconds; the delays between consecutive webhook attempts. */
const durationList = z.string().transform((value, ctx) => {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const out: number[] = [];
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(ms|s|m|h|d)$/.exec(part);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not a duration like 5s, 5m, 2h` });
      return z.NEVER;
    }
    out.push(Number(m[1]) * units[m[2]!]!);
  }
  return out;
});

/** One duration such as "5d" or "90s", in milliseconds. */
const duration = durationList.refine((list) => list.length === 1, { message: 'must be one duration like 5d, 12h, 90s' }).transform((list) => list[0]!);

/** An S3-compatible bucket for attachments (ATTACHMENTS_S3_URL), parsed. */
export interface S3Location {
  /** `https://host[:port]`, or `http://…` for `s3+http://`. */
  endpoint: string;
  bucket: string;
  /** Prepended to every object key: "" or ending in "/". */
  prefix: string;
  region: string;
  forcePathStyle: boolean;
  /** From the URL's user info; absent: the AWS SDK's default chain (AWS_ACCESS_KEY_ID…, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const S3_FORM = 'must be s3://[ACCESS_KEY:SECRET@]host[:port]/bucket[/prefix][?region=…&forcePathStyle=true|false] (s3+http:// for a store without TLS)';

/**
 * `s3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix]?region=…&forcePathStyle=…` → S3Location.
 * Messages never repeat the user info (the secret).
 */
const s3Url = z.string().transform((value, ctx): S3Location => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(S3_FORM);
  }
  if (url.protocol !== 's3:' && url.protocol !== 's3+http:') return fail(S3_FORM);
  if (!url.hostname) return fail(`${S3_FORM}: the host is missing`);
  const [bucket = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return fail(`${S3_FORM}: "${bucket}" is not a bucket name (3-63 of a-z 0-9 . -)`);
  let prefix: string;
  try {
    prefix = rest.filter(Boolean).map(decodeURIComponent).join('/');
  } catch {
    return fail(`${S3_FORM}: the prefix is not valid percent-encoding`);
  }
  if (prefix) prefix += '/';
  let credentials: S3Location['credentials'];
  if (url.username || url.password) {
    if (!url.username || !url.password) return fail('must give both the access key and the secret (ACCESS_KEY:SECRET@), or neither to use the AWS credential chain');
    try {
      credentials = { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) };
    } catch {
      return fail('the access key and secret must be percent-encoded (/ as %2F, + as %2B)');
    }
  }
  for (const name of url.searchParams.keys()) {
    if (name !== 'region' && name !== 'forcePathStyle') return fail(`unknown parameter "${name}" (known: region, forcePathStyle)`);
  }
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') return fail('forcePathStyle must be true or false');
  const aws = /(^|\.)amazonaws\.com$/.test(url.hostname);
  const region = url.searchParams.get('region') || /^s3[.-]([a-z0-9-]+)\.amazonaws\.com$/.exec(url.hostname)?.[1] || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) return fail('region must be a region name like eu-west-1');
  return {
    endpoint: `${url.protocol === 's3+http:' ? 'http' : 'https'}://${url.host}`,
    bucket,
    prefix,
    region,
    // AWS prefers virtual-hosted buckets; MinIO, Ceph, Garage and most others, paths.
    forcePathStyle: pathStyle === null ? !aws : pathStyle === 'true',
    ...(credentials ? { credentials } : {}),
  };
});

/**
 * Every setting the process reads, with its default. The names are the environment variables;
 * `.env.example` lists the same ones.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(0, 65535).default(3000),
  /** Where the public reaches the server; used for the same-origin check and every link (unset: http://HOST:PORT, never a request header; docs/mail.md). */
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  /** Unset: the embedded database under DATA_DIR. Set: that PostgreSQL server. */
  DATABASE_URL: url(['postgresql:', 'postgres:']).optional(),
  DATABASE_POOL_SIZE: int(1, 500).default(10),
  /** How long opening a new database connection may take before the request gets 503. */
  DATABASE_CONNECT_TIMEOUT_MS: int(100, 60_000).default(2000),
  /**
   * Longest a query may take: the server cancels it (statement_timeout) and the client stops
   * waiting and drops the connection (a server that stopped answering), so the request gets 503.
   */
  DATABASE_QUERY_TIMEOUT_MS: int(100, 600_000).default(2000),
  /**
   * Longest a request waits for a free pooled connection while the database keeps answering (a
   * busy database queues requests; one that stops answering is found by the probe below).
   */
  DATABASE_QUEUE_TIMEOUT_MS: int(100, 600_000).default(10_000),
  /**
   * How long `SELECT 1` on the liveness connection may go unanswered, while nothing else is
   * answered either, before the database counts as not answering: every request waiting on it then
   * gets 503 at once, and new ones until it answers again.
   */
  DATABASE_PROBE_TIMEOUT_MS: int(100, 60_000).default(750),
  DATA_DIR: z.string().min(1).default('./data'),
  MIGRATE_ON_START: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-* from a reverse proxy (for client addresses and https detection). */
  TRUST_PROXY: bool.default(false),
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(10_000),
  SESSION_TTL_HOURS: int(1, 24 * 365).default(24 * 14),
  MAX_ATTACHMENT_BYTES: int(1).default(25 * 1024 * 1024),
  MAX_ANSWER_ATTACHMENT_BYTES: int(1).default(15 * 1024 * 1024),
  INVITES_PER_DAY: int(0).default(50),
  RATE_LIMIT_MAX: int(1).default(100),
  RATE_LIMIT_WINDOW_MS: int(1).default(10_000),
  /** Messages one widget visitor may send per RATE_LIMIT_WINDOW_MS (src/widget). */
  WIDGET_VISITOR_MESSAGES_MAX: int(1).default(10),
  /** Messages all visitors of one widget may send together per RATE_LIMIT_WINDOW_MS. */
  WIDGET_MESSAGES_MAX: int(1).default(300),
  /** Unset: rate-limit counters live in the database. Set: in this Redis (shared by every process). */
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  /** Unset: attachments on local disk under DATA_DIR. Set: in this S3-compatible bucket (shared by every process). */
  ATTACHMENTS_S3_URL: s3Url.optional(),
  /** Above this mean event-loop delay (ms) requests get 503 with Retry-After; 0 turns the check off. */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: int(0).default(1000),
  /** Above this V8 heap use (bytes) requests get 503; unset: 90 % of the heap limit; 0: off. */
  OVERLOAD_MAX_HEAP_USED_BYTES: int(0).optional(),
  /** Set: GET /metrics (Prometheus) answers to `Authorization: Bearer <this>`. Unset: no /metrics (404). */
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /**
   * Memory (MB) each process may keep board fetches in (GET /api/boards/{id}), least recently used
   * out first; dropped by the change stream, so a board read far more often than it changes costs
   * no database work. 0 turns the cache off.
   */
  BOARD_CACHE_MB: int(0, 1_000_000).default(64),
  /**
   * Largest article, in characters of title and body together. Creating or replacing a larger one is 413,
   * on every path (POST, PUT, import and its dry run, the CLI). Tokenising one article is the slice of an
   * index build that cannot be cut: 100,000 characters take about 50-150 ms.
   */
  KNOWLEDGE_MAX_ARTICLE_CHARS: int(1000, 200_000).default(100_000),
  /**
   * A workspace's knowledge at most, in characters of every article's title and body: past it a create,
   * replace or import is 413 and changes nothing. 20 million characters build an index of about 150 MB
   * in 5-10 s of sliced work.
   */
  KNOWLEDGE_MAX_WORKSPACE_CHARS: int(10_000, 500_000_000).default(20_000_000),
  /**
   * Memory (MB, estimated from the characters tokenised) each process may keep workspaces' knowledge
   * indexes in, least recently used out first; the index in use is kept even when it alone is larger.
   */
  KNOWLEDGE_INDEX_CACHE_MB: int(1, 1_000_000).default(512),
  /** Who may create support workspaces: `everyone` signed in, or only `site_admins` (the CLI always may). */
  WORKSPACE_CREATORS: z.enum(['everyone', 'site_admins']).default('everyone'),
  WEBHOOK_TIMEOUT_MS: int(1).default(10_000),
  WEBHOOK_RETRY_SCHEDULE: durationList.default(durationList.parse('5s,5m,30m,2h,5h,10h,10h')),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** An endpoint whose attempts have all failed for this long is disabled ("5d", "12h"). */
  WEBHOOK_DISABLE_AFTER: duration.default(duration.parse('5d')),
  /** How often each process looks for due deliveries besides being woken by commits. */
  WEBHOOK_POLL_MS: int(50, 60_000).default(1000),
  /** Events older than this, with every delivery settled, are deleted with their deliveries and attempts. */
  WEBHOOK_RETENTION: duration
    .refine((ms) => ms >= 3_600_000, { message: 'must be at least 1h: a shorter one would delete the delivery log before anyone reads it' })
    .default(duration.parse('30d')),
  /**
   * Unset: no mail is sent (invitation and set-up links are copied by hand, only site admins
   * change e-mail addresses). Set: `smtp://user:pass@host:587` (STARTTLS when the server offers
   * it) or `smtps://user:pass@host:465` (implicit TLS), as nodemailer reads it.
   */
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  /** The From of every mail, `Taskboard <taskboard@example.com>`; needed with SMTP_URL. */
  MAIL_FROM: z.string().min(3).max(300).regex(/@/, { message: 'must hold an e-mail address' }).optional(),
  /** Delays between consecutive attempts of one mail (jittered); then it is failed. */
  MAIL_RETRY_SCHEDULE: durationList.default(durationList.parse('30s,2m,10m,30m,1h,2h,4h,8h')),
  /** Per SMTP step (connecting, the greeting, each command's answer). */
  MAIL_TIMEOUT_MS: int(100, 300_000).default(30_000),
  /** How often each process looks for due mail besides being woken by commits. */
  MAIL_POLL_MS: int(50, 600_000).default(5000),
  /** A team's public reply on a ticket is mailed this long after it, unless an open widget acknowledges it first. */
  REPLY_MAIL_DELAY_MS: int(0, 3_600_000).default(10_000),
  /** Sent mail older than this is deleted from the delivery log (pending and failed mail are kept). */
  MAIL_RETENTION: duration
    .refine((ms) => ms >= 3_600_000, { message: 'must be at least 1h: a shorter one would delete the delivery log before anyone reads it' })
    .default(duration.parse('30d')),
  /** A person's unmailed notifications go in one mail this long after the first of them, so a busy board sends one mail, not one per change. */
  NOTIFY_MAIL_BATCH_SECONDS: int(1, 86_400).default(300),
  /** How often each process looks for cards due tomorrow (a sweep that notifies once per due date). */
  NOTIFY_DUE_SWEEP_SECONDS: int(1, 86_400).default(900),
  /** Read notifications older than this are deleted, and unsubscribe links older than this but each person's newest. */
  NOTIFY_RETENTION: duration
    .refine((ms) => ms >= 86_400_000, { message: 'must be at least 1d: a shorter one would empty the notification list within a day of reading it' })
    .default(duration.parse('90d')),
  LLM_BASE_URL: url(['http:', 'https:']).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  /** Per attempt; the answer API retries LLM_RETRIES times with backoff, then answers 502. */
  LLM_TIMEOUT_MS: int(100, 300_000).default(20_000),
  LLM_RETRIES: int(0, 10).default(2),
  /** First backoff delay between LLM attempts (doubled each retry). */
  LLM_BACKOFF_MS: int(0, 60_000).default(300),
  /** Pass the message's images to the model (for models that read images). */
  LLM_IMAGES: bool.default(false),
  /**
   * Rank knowledge by meaning as well as by words: each article's vectors are computed in the background
   * and kept in the database, blended with the lexical score (docs/answer-api.md). Off: lexical only.
   */
  SEMANTIC_RANKING: bool.default(true),
  /** Share of the cosine in the blended ranking (0-1); 0.4 was chosen on the evaluation's bases for the built-in encoder. */
  SEMANTIC_WEIGHT: z.coerce.number().min(0).max(1).default(0.4),
  /** How long an answer waits for its message's vector; past it that answer is ranked lexically. */
  SEMANTIC_QUERY_TIMEOUT_MS: int(10, 60_000).default(400),
  /** Memory (MB) each process may keep workspaces' vectors in, least recently used out first. */
  SEMANTIC_CACHE_MB: int(1, 1_000_000).default(256),
  /**
   * An OpenAI-compatible embeddings endpoint's base (`http://127.0.0.1:11434/v1` for Ollama): `/embeddings`
   * is appended. Unset: the built-in sentence encoder (Universal Sentence Encoder Lite, offline).
   */
  EMBEDDINGS_URL: url(['http:', 'https:']).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).max(90).default('text-embedding-3-small'),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_TIMEOUT_MS: int(100, 300_000).default(10_000),
  /**
   * Threads of the built-in sentence encoder (each ~200 MB; one beyond the first starts when work
   * waits and stops after 30 s idle). Unset: half the cores, at least two, at most four.
   */
  EMBEDDINGS_THREADS: int(1, 64).optional(),
  /**
   * How long one answer call's attachments may take to read (PDF text, image headers); a reader
   * still busy then is terminated and its attachment counts as unreadable.
   */
  ATTACHMENT_READ_TIMEOUT_MS: int(100, 60_000).default(2000),
  /** Worker threads that read attachments; unset: one per core. */
  ATTACHMENT_READERS: int(1, 256).optional(),
  /** Attachments waiting for a reader at most; past it an attachment is skipped as unreadable. */
  ATTACHMENT_READ_QUEUE: int(0, 10_000).default(20),
  /**
   * Languages the text in images is read in (OCR), `+`-separated Tesseract codes (`eng+deu`); each
   * needs its npm package `@tesseract.js-data/<code>`. Empty: images are checked by header only.
   */
  OCR_LANGUAGES: z
    .string()
    .default('eng')
    .transform((v) => v.split('+').map((code) => code.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z_]{3,16}$/, { message: 'must be Tesseract language codes such as eng or chi_sim' })).max(8)),
});

export type Config = z.infer<typeof configSchema> & {
  /** Absolute DATA_DIR. */
  dataDir: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses settings from an environment; throws ConfigError whose message is one line naming the
 * first bad variable and its rule.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`PORT=`) means "use the default", as if it were not set.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const value = env[name];
    const shown = value === undefined ? '' : ` (got "${redactValue(name, value)}")`;
    throw new ConfigError(`invalid setting ${name}: ${issue.message}${shown}`);
  }
  if (result.data.SMTP_URL && !result.data.MAIL_FROM) throw new ConfigError('invalid setting MAIL_FROM: required with SMTP_URL (the From of every mail, such as "Taskboard <taskboard@example.com>")');
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR) };
}

function redactValue(name: string, value: string): string {
  if (/KEY|SECRET|PASSWORD|TOKEN/.test(name)) return '…';
  if (name === 'DATABASE_URL' || name === 'REDIS_URL' || name === 'SMTP_URL') return value.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@');
  // A secret may hold a raw "/" or "@" (not percent-encoded): everything up to the last "@" goes.
  if (name === 'ATTACHMENTS_S3_URL') return value.replace(/\/\/([^:@/]*):.*@/, '//$1:…@');
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}

/** A config for tests and tools: defaults plus what is given. */
export function configFrom(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ ...overrides });
}

/** Reads `./.env` into process.env when there is one; variables already set win. */
export function loadDotEnv(file = '.env') {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
