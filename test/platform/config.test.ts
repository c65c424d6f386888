import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has a default for every setting', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 3000,
      DATA_DIR: './data',
      MIGRATE_ON_START: true,
      MAX_ATTACHMENT_BYTES: 25 * 1024 * 1024,
      MAX_ANSWER_ATTACHMENT_BYTES: 15 * 1024 * 1024,
      INVITES_PER_DAY: 50,
      RATE_LIMIT_MAX: 100,
      RATE_LIMIT_WINDOW_MS: 10_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_ALLOW_PRIVATE: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(config.WEBHOOK_RETENTION).toBe(30 * 86_400_000);
  });

  it('parses what it is given', () => {
    const config = loadConfig({ PORT: '8080', MIGRATE_ON_START: 'false', DATABASE_URL: 'postgresql://u:p@h:5432/d', WEBHOOK_RETRY_SCHEDULE: '1s, 2m' });
    expect(config).toMatchObject({ PORT: 8080, MIGRATE_ON_START: false, DATABASE_URL: 'postgresql://u:p@h:5432/d', WEBHOOK_RETRY_SCHEDULE: [1000, 120000] });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, /^invalid setting PORT: must be a whole number \(got "abc"\)$/],
    [{ PORT: '70000' }, /^invalid setting PORT: must be at most 65535/],
    [{ MIGRATE_ON_START: 'maybe' }, /^invalid setting MIGRATE_ON_START: must be true or false/],
    [{ DATABASE_URL: 'mysql://x' }, /^invalid setting DATABASE_URL: must be a postgresql:\/\/ or postgres:\/\/ URL/],
    [{ LOG_LEVEL: 'loud' }, /^invalid setting LOG_LEVEL: /],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, /^invalid setting WEBHOOK_RETRY_SCHEDULE: "soon" is not a duration/],
    [{ RATE_LIMIT_MAX: '0' }, /^invalid setting RATE_LIMIT_MAX: must be at least 1/],
    [{ WEBHOOK_RETENTION: '30m' }, /^invalid setting WEBHOOK_RETENTION: must be at least 1h/],
    [{ WEBHOOK_RETENTION: 'forever' }, /^invalid setting WEBHOOK_RETENTION: "forever" is not a duration/],
  ])('rejects %o with one line naming the variable and the rule', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a password from DATABASE_URL', () => {
    try {
      loadConfig({ DATABASE_URL: 'postgresql://u:hunter2@h/d', PORT: 'x' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
    expect(() => loadConfig({ LLM_API_KEY: '', DATABASE_URL: 'notaurl://u:hunter2@h' })).toThrow(/^(?!.*hunter2)/);
  });
});

it('treats an empty number or host as unset too', () => {
  expect(loadConfig({ PORT: '', HOST: '' })).toMatchObject({ PORT: 3000, HOST: '127.0.0.1' });
});
