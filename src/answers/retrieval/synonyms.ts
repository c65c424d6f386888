import { normalize, stemWord } from './text.js';

/**
 * Words customers use for the same thing, one group per line (general support vocabulary, not
 * any one help centre's). A query word also looks for the others of its group, at a lower weight.
 */
const GROUPS = `
cancel terminate quit unsubscribe
refund reimburse reimbursement
invoice bill billing receipt
subscription plan membership tier
price pricing cost costs fee fees
pay payment charge charged card
delete remove erase wipe
remove kick offboard revoke
account profile
email mail inbox
phone mobile smartphone cell
app application
error problem issue bug broken glitch fails failing failure crash crashes
export download extract backup
import upload migrate transfer
teammate colleague coworker member user people staff employee
permission permissions access role roles privilege rights visibility
notification notifications alert alerts reminder reminders notify
remind reminder nudge chase
calendar schedule agenda diary
login signin logon
logout signout
password passcode passphrase pwd
2fa mfa twofactor authenticator otp
sso saml okta
workspace organization organisation company
upgrade premium
downgrade cheaper
slow slowness lag laggy sluggish performance
sync synchronize synchronise synchronization syncing
offline wifi internet connection connectivity
seat seats license licence licenses licences headcount
name surname lastname firstname
budget budgets money spend spending
pause break temporarily hold
workload capacity overloaded busy
logout kicked
invite add onboard
project projects
task tasks todo todos
timer tracking timesheet timesheets stopwatch clock
report reports analytics stats statistics dashboard
archive hide
restore recover undo undelete
language locale translation
integration integrations connect connection zapier
api developer token webhook webhooks
`;

/** Multi-word phrases folded into one word before tokenising, so "log in" meets "login". */
const PHRASES: [RegExp, string][] = [
  // Before "sign on" becomes "login".
  [/\bsingle sign[- ]?on\b/g, 'sso'],
  [/\b(?:log(?:ged|ging)?|sign(?:ed|ing|s)?)[- ]?(?:in|on)(?:to)?\b/g, 'login'],
  [/\b(?:log(?:ged|ging|s)?|sign(?:ed|ing|s)?)[- ]?out\b/g, 'logout'],
  [/\btwo[- ]?(factor|step)\b/g, 'twofactor'],
  [/\be-mails?\b/g, 'email'],
  [/\bto[- ]do\b/g, 'todo'],
  [/\bset[- ]?up\b/g, 'setup'],
  [/\bmoney back\b/g, 'refund'],
];

export function foldPhrases(text: string): string {
  let out = normalize(text);
  for (const [pattern, replacement] of PHRASES) out = out.replace(pattern, replacement);
  return out;
}

const bySTEM = new Map<string, string[]>();
for (const line of GROUPS.trim().split('\n')) {
  const stems = [...new Set(line.trim().split(/\s+/).map((w) => stemWord(w)))];
  for (const s of stems) {
    const others = stems.filter((o) => o !== s);
    bySTEM.set(s, [...new Set([...(bySTEM.get(s) ?? []), ...others])]);
  }
}

/** The other stems of the stem's synonym groups. */
export const synonymsOf = (stem: string): string[] => bySTEM.get(stem) ?? [];
