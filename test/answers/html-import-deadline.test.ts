import { describe, expect, it } from 'vitest';
import { loginCookie } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace } from './answer-fixtures.js';
import { bigHtml, warmReaders } from './html-pages.js';

/**
 * #44 item 2: an HTML page is read under the attachment readers' deadline; the reader still busy
 * when it passes is terminated, and the import names the page that took too long (never a 500).
 */
const t = useTestApp({ ATTACHMENT_READ_TIMEOUT_MS: '100' });

describe('an HTML page that takes longer than ATTACHMENT_READ_TIMEOUT_MS', () => {
  it('is given up on at the deadline, its reader terminated, and named as too slow', { timeout: 120_000 }, async () => {
    const w = await answerWorkspace(t);
    const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
    await warmReaders(t.app.attachmentReader);
    // 1.5 MB of sections: parsing it alone takes far longer than 100 ms.
    const contentBase64 = Buffer.from(bigHtml(1.5 * 1024 * 1024)).toString('base64');
    const res = await t.app.inject({
      method: 'POST',
      url: `/agent/workspaces/${w.workspaceId}/articles/read-files`,
      headers: { cookie },
      payload: { files: [{ filename: 'slow.html', contentBase64 }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().texts).toEqual([{ filename: 'slow.html', title: null, text: null, problem: expect.stringMatching(/^Took too long to read/) }]);
    expect(t.logs.raw.join('\n')).toContain('attachment reader: deadline passed, reader terminated');
  });
});
