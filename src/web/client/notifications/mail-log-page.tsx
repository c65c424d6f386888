import { useEffect, useState } from 'preact/hooks';
import { get } from '../api';
import { Alert, formatDate, Notice, PageTitle, Table, useLoad } from '../ui';

type MailRow = {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
};

const when = (iso: string | null) => formatDate(iso, { time: true });

/** `/site-admin/mail`: the delivery log for site admins (GET /admin/mail): queued, sent, failed, and why. */
export function MailLogPage() {
  const [status, setStatus] = useState<'' | MailRow['status']>('');
  const { data, error, reload } = useLoad(() => get<{ mailEnabled: boolean; mail: MailRow[] }>(`/admin/mail${status ? `?status=${status}` : ''}`), [status]);
  // Pending mail moves by itself: follow it while any is listed.
  const pending = data?.mail.some((m) => m.status === 'pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void reload(), 3000);
    return () => clearInterval(timer);
  }, [pending, reload]);
  return (
    <main class="mail-log">
      <PageTitle>Mail delivery log</PageTitle>
      {data && !data.mailEnabled && <Notice>This server sends no mail (SMTP_URL is not set): nothing new is queued.</Notice>}
      <label class="inline">
        Show{' '}
        <select value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
          <option value="">all</option>
          <option value="pending">queued</option>
          <option value="sent">sent</option>
          <option value="failed">failed</option>
        </select>
      </label>
      <Alert error={error} />
      <Table
        columns={['Queued', 'To', 'Subject', 'Kind', 'State', 'Attempts', 'Why']}
        rows={data?.mail}
        empty={<p class="hint">No mail{status ? ` in this state` : ''}.</p>}
        row={(m) => (
          <tr key={m.id} data-mail-id={m.id}>
            <td>{when(m.createdAt)}</td>
            <td>{m.recipient}</td>
            <td>{m.subject}</td>
            <td>{m.kind}</td>
            <td>
              <span class={`badge mail-${m.status}`}>{m.status === 'pending' ? 'queued' : m.status}</span>
              {m.status === 'sent' && <span class="hint"> {when(m.sentAt)}</span>}
              {m.status === 'pending' && m.attempts > 0 && <span class="hint"> next try {when(m.nextAttemptAt)}</span>}
            </td>
            <td>{m.attempts}</td>
            <td class="mail-error">{m.lastError ?? ''}</td>
          </tr>
        )}
      />
    </main>
  );
}
