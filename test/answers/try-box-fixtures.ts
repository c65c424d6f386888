/** What a new user tries the agent with (test/web/try-box-answers.test.ts, bench and eval scripts). */

/** A small help centre, as a new user imports one: eight articles of an invented product. */
export const KNOWLEDGE = [
  { externalId: 'pw-reset', title: 'Reset your password', body: 'If you forgot your password, click "Forgot password?" on the sign-in page. We e-mail you a reset link valid for 60 minutes.\n\nThe reset link expired\n\nLinks expire after one hour. Ask for a new one from the sign-in page.' },
  { externalId: 'pw-change', title: 'Change your password', body: 'To change a password you know, open Profile > Security and click Change password. Enter the current one, then the new one twice.' },
  { externalId: 'plans', title: 'Plans and prices', body: 'Acme comes in three plans: Basic (free, up to 3 members), Pro (8 € a member each month) and Business (15 € a member each month, with single sign-on and audit logs).\n\nChange your plan\n\nOwners switch between Basic, Pro and Business under Admin > Billing > Change plan. An upgrade starts at once; a downgrade starts with the next billing period.' },
  { externalId: 'inv-pdf', title: 'Export invoices to PDF', body: 'Open an invoice and click Download > PDF. Select several invoices to download a ZIP of PDFs.' },
  { externalId: 'inv-csv', title: 'Export invoices to CSV', body: 'In the Invoices list click Export and choose CSV: one line per invoice with number, client, amount and status.' },
  { externalId: 'cancel', title: 'Cancel your subscription', body: 'Owners cancel under Admin > Billing > Cancel subscription. The plan stays active until the end of the billing period.' },
  { externalId: 'android', title: 'Android app', body: 'Get the app from Google Play (Android 10 or later). Allow notifications to receive push alerts for assignments.' },
  { externalId: 'e4417', title: 'Error E-4417 when syncing calendars', body: 'Error E-4417 means your calendar token expired. Disconnect the calendar under Profile > Integrations and connect it again.' },
];

/** Messages a new user types to try the agent: typos, plan names, screenshots of a dialog. Each has one right article. */
export const MESSAGES: { message: string; article: string; screenshot?: { title: string; text: string } }[] = [
  { message: 'how do i reset my pasword?', article: 'pw-reset' },
  { message: 'my pasword reset link dosnt work anymore', article: 'pw-reset' },
  { message: 'can we go from Pro down to Basic?', article: 'plans' },
  { message: 'how much is Business per member?', article: 'plans' },
  { message: 'where do I download an invoice as a PDF?', article: 'inv-pdf' },
  { message: 'I need all my invoices in a spreadsheet', article: 'inv-csv' },
  { message: 'how do I stop my subscription?', article: 'cancel' },
  { message: 'no push alerts on my android phone', article: 'android' },
  { message: 'see the attached screenshot, what should I do?', article: 'e4417', screenshot: { title: 'Sync failed', text: 'Error E-4417: your calendar could not be synced. Try again later.' } },
  { message: 'I get this when I open my invoice', article: 'inv-pdf', screenshot: { title: 'Download failed', text: 'The invoice could not be downloaded as a PDF file.' } },
];
