// Owns: Fossil (Debian package `fossil`), the tracker: a repository of its own per run,
// served by `fossil server` on loopback, and its tasks, each judged from the repository's
// own tables (`fossil sql`).
// Must never: judge a task from what a tool answered.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { has, after, near, sameRow } from '../mcp-sides.mjs';
import { waitForHttp, debVersion } from './serve.mjs';

export const name = 'fossil';
export const PASSWORD = 'Tr4ck-pass-81';

export async function start(dir, port) {
  const repo = path.join(dir, 'repo.fossil');
  execFileSync('fossil', ['init', repo, '--admin-user', 'admin'], { cwd: dir, stdio: 'ignore' });
  execFileSync('fossil', ['user', 'password', 'admin', PASSWORD, '-R', repo], { stdio: 'ignore' });
  execFileSync('fossil', ['user', 'new', 'reporter', 'reporter@example.test', 'Rep0rter-pass', '-R', repo], { stdio: 'ignore' });
  const proc = spawn('fossil', ['server', repo, '--port', String(port), '--localhost'], { cwd: dir, stdio: 'ignore' });
  const url = (p = '') => `http://127.0.0.1:${port}/${p}`;
  await waitForHttp(url('login'));
  // (`.mode list`: values as stored, not SQL-quoted.)
  const sql = (q) => execFileSync('fossil', ['sql', '-R', repo], { input: `.mode list\n${q};\n`, encoding: 'utf8' }).trim();
  return { url, sql, version: debVersion('fossil'), stop: () => proc.kill() };
}

const q = (s) => s.replace(/'/g, "''");

/** The remark's text area: the second text box after "from" (its author's box first). */
const remark = (line, before) => /textbox/.test(line) && before.slice(-2).some((b) => /textbox/.test(b)) && before.slice(-4).some((b) => /\bfrom\b/.test(b));

export function tasks(app) {
  const one = (q) => app.sql(q);
  const ticket = (title, cond = '1') => Number(one(`select count(*) from ticket where title='${q(title)}' and ${cond}`)) === 1;
  const newTicket = (title, type, severity, text) => ({ name: `new ticket: ${title}`, url: 'tktnew', steps: [
    ['browser_fill', near(/one-line summary/, /textbox/, 3), { text: title }],
    ['browser_select_option', near(/Type:/, /combobox/, 3), { value: type }],
    ['browser_select_option', near(/Severity:/, /combobox/, 3), { value: severity }],
    ['browser_fill', near(/combobox.*Markdown|option "Wiki"/, /textbox/, 3), { text }],
    ['browser_click', has(/button "Preview"/)],
    ['browser_click', has(/button "Submit"/)],
  ], check: () => ticket(title, `type='${type}' and severity='${severity}'`) });
  return [
    { name: 'log in', always: true, url: 'login', steps: [
      ['browser_fill', has(/textbox "User ID:"/), { text: 'admin' }],
      ['browser_fill', has(/textbox "Password:"/), { text: PASSWORD }],
      ['browser_click', has(/button "Login"/)],
    ], check: () => one("select cookie is not null from user where login='admin'") === '1' },
    newTicket('Crash when saving a draft', 'Code_Defect', 'Severe', 'Saving a draft with an empty title crashes the editor.'),
    newTicket('Add a dark theme', 'Feature_Request', 'Minor', 'Users ask for a dark colour scheme.'),
    newTicket('Typo on the download page', 'Documentation', 'Cosmetic', 'The download page says "donwload".'),
    { name: 'resolve a ticket as fixed', url: 'rptview?rn=1', steps: [
      ['browser_click', near(/Crash when saving a draft/, /link "edit"/)],
      ['browser_select_option', near(/Status:/, /combobox/, 3), { value: 'Fixed' }],
      ['browser_select_option', near(/Resolution:/, /combobox/, 3), { value: 'Fixed' }],
      ['browser_click', has(/button "Preview"/)],
      ['browser_click', has(/button "Submit"/)],
    ], check: () => ticket('Crash when saving a draft', "status='Fixed' and resolution='Fixed'") },
    { name: 'raise a priority and append a remark', url: 'rptview?rn=1', steps: [
      ['browser_click', near(/Add a dark theme/, /link "edit"/)],
      ['browser_select_option', near(/Priority:/, /combobox/, 3), { value: 'High' }],
      ['browser_fill', remark, { text: 'Several customers asked for this in the survey.' }],
      ['browser_click', has(/button "Preview"/)],
      ['browser_click', has(/button "Submit"/)],
    ], check: () => ticket('Add a dark theme', "priority='High'") && Number(one("select count(*) from ticketchng where icomment like '%customers asked%'")) === 1 },
    { name: 'rename a ticket', url: 'rptview?rn=1', steps: [
      ['browser_click', near(/Typo on the download page/, /link "edit"/)],
      ['browser_fill', near(/Title:/, /textbox/, 3), { text: 'Typo on the downloads page' }],
      ['browser_click', has(/button "Preview"/)],
      ['browser_click', has(/button "Submit"/)],
    ], check: () => ticket('Typo on the downloads page') },
    { name: 'add a user with capabilities', url: 'setup_ulist', steps: [
      ['browser_click', has(/link "Add"|button "Add"/)],
      ['browser_fill', has(/textbox "Login:"/), { text: 'carol' }],
      ['browser_fill', has(/textbox "Contact Info:"/), { text: 'carol@example.test' }],
      ['browser_click', has(/checkbox "Developer"/)],
      ['browser_click', has(/checkbox "Write Wiki/)],
      ['browser_fill', has(/textbox "Password:"/), { text: 'Car0l-pass-2026' }],
      ['browser_click', has(/button "Apply Changes"/)],
    ], check: () => /v/.test(one("select cap from user where login='carol'")) && /k/.test(one("select cap from user where login='carol'")) },
    { name: "change a user's contact", url: 'setup_ulist', steps: [
      ['browser_click', has(/link "reporter"/)],
      ['browser_fill', has(/textbox "Contact Info:"/), { text: 'reporter@tracker.example.test' }],
      ['browser_click', has(/button "Apply Changes"/)],
    ], check: () => one("select info from user where login='reporter'") === 'reporter@tracker.example.test' },
    { name: 'name the project', url: 'setup_config', steps: [
      ['browser_fill', has(/textbox "Project Name"/), { text: 'Apollo Tracker' }],
      ['browser_fill', has(/textbox "Project Description"/), { text: 'Issues of the Apollo release.' }],
      ['browser_click', has(/button "Apply Changes"/)],
    ], check: () => one("select value from config where name='project-name'") === 'Apollo Tracker' && one("select value from config where name='project-description'") === 'Issues of the Apollo release.' },
    { name: 'allow self-registration', url: 'setup_access', steps: [
      ['browser_click', has(/checkbox "Allow users to register themselves"/)],
      ['browser_click', has(/button "Apply Changes"/)],
    ], check: () => one("select value from config where name='self-register'") === '1' },
    { name: 'new ticket report', url: 'rptnew', steps: [
      ['browser_fill', near(/Report Title:/, /textbox/, 3), { text: 'Open defects' }],
      ['browser_click', has(/button "Apply Changes"/)],
    ], check: () => Number(one("select count(*) from reportfmt where title='Open defects'")) === 1 },
    { name: 'new forum thread', url: 'forumnew', steps: [
      ['browser_fill', near(/Title:/, /textbox/, 3), { text: 'Welcome to the tracker' }],
      ['browser_fill', has(/textbox "Content:"/), { text: 'Post questions about the Apollo release here.' }],
      ['browser_click', has(/button "Preview"/)],
      ['browser_click', has(/button "Submit"/)],
    ], check: () => Number(one("select count(*) from event where type='f'")) >= 1 },
    { name: 'new wiki page', url: 'wikinew', steps: [
      ['browser_fill', near(/Name of new wiki page:/, /textbox/, 3), { text: 'Release Plan' }],
      ['browser_click', has(/button "Create"/)],
      ['browser_fill', has(/- textbox( \[active\])? \[ref=/), { text: '# Release plan\n\nThe Apollo release ships in March.' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => Number(one("select count(*) from tag where tagname='wiki-Release Plan'")) === 1 },
    { name: 'log out', url: 'home', steps: [
      ['browser_click', has(/link "Logout"/)],
      ['browser_click', has(/button "Logout"/)],
    ], check: () => one("select cookie is null from user where login='admin'") === '1' },
  ];
}
