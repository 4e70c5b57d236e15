// Owns: phpLiteAdmin (Debian package `phpliteadmin`), a SQLite database manager: a database
// of its own per run, served by `php -S` (its configuration file in the working directory,
// as the application reads it), and its tasks, each judged from the database (`sqlite3`).
// Must never: judge a task from what a tool answered.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { has, after, near, sameRow, inRow } from '../mcp-sides.mjs';
import { phpServer, debVersion } from './serve.mjs';

export const name = 'phpliteadmin';
export const PASSWORD = 'L1te-admin-77';

const SEED = `
create table books (id integer primary key, title text not null, author text, year integer);
create table members (id integer primary key, name text not null, email text);
create table loans (id integer primary key, book_id integer, member_id integer, due text);
insert into books (title, author, year) values ('Dune', 'Frank Herbert', 1965), ('Neuromancer', 'William Gibson', 1984), ('Hyperion', 'Dan Simmons', 1989);
insert into members (name, email) values ('Ursula Le Guin', 'ursula@example.test'), ('Iain Banks', 'iain@example.test');
insert into loans (book_id, member_id, due) values (1, 1, '2026-12-20');
`;

export async function start(dir, port) {
  const db = path.join(dir, 'library.sqlite');
  execFileSync('sqlite3', [db], { input: SEED });
  fs.writeFileSync(path.join(dir, 'phpliteadmin.config.php'), `<?php\n$password = ${JSON.stringify(PASSWORD)};\n$directory = '.';\n$subdirectories = false;\n`);
  const server = await phpServer(port, '/usr/share/phpliteadmin/phpliteadmin.php', { cwd: dir });
  const sql = (q) => execFileSync('sqlite3', [db, q], { encoding: 'utf8' }).trim();
  return { url: (p = '') => `http://127.0.0.1:${port}/${p}`, sql, db, version: debVersion('phpliteadmin'), stop: server.stop };
}

/** A form's value box for field `col`: the text box of the row whose first cell names it. */
const field = (col) => (line, before) => {
  if (!/textbox/.test(line)) return false;
  const row = before.findLastIndex((b) => /^\s*- row\b/.test(b));
  return row >= 0 && new RegExp(`cell "${col}"`).test(before[row + 1] || '');
};
/** The SQL box: the text box above the "Delimiter" label (not the new database's name box). */
const sqlBox = (line, _before, next) => /textbox/.test(line) && next.some((n) => /Delimiter/.test(n));

export function tasks(app) {
  const one = (q) => app.sql(q);
  const at = (p) => `?database=.%2Flibrary.sqlite&${p}`;
  const tableSql = (name, table, command, check) => ({ name, url: at(`table=${table}&action=table_sql`), steps: [
    ['browser_fill', sqlBox, { text: command }],
    ['browser_click', near(/Delimiter/, /button "Go"/, 3)],
  ], check });
  const editRow = (name, table, rowText, col, text, check) => ({ name, url: at(`table=${table}&action=row_view`), steps: [
    ['browser_click', sameRow(rowText, /link "Edit"/)],
    ['browser_fill', field(col), { text }],
    ['browser_click', has(/button "Save Changes"|button "Save"/)],
  ], check });
  return [
    { name: 'log in and add a book', always: true, url: '', steps: [
      ['browser_fill', near(/Password:/, /textbox/, 3), { text: PASSWORD }],
      ['browser_click', has(/button "Log In"/)],
      ['navigate', app.url(at('table=books&action=row_create'))],
      ['browser_fill', field('title'), { text: 'The Left Hand of Darkness' }],
      ['browser_fill', field('author'), { text: 'Ursula K. Le Guin' }],
      ['browser_fill', field('year'), { text: '1969' }],
      ['browser_click', has(/button "Insert"/)],
    ], check: () => one("select author || '/' || year from books where title='The Left Hand of Darkness'") === 'Ursula K. Le Guin/1969' },
    { name: 'add a member', url: at('table=members&action=row_create'), steps: [
      ['browser_fill', field('name'), { text: 'Octavia Butler' }],
      ['browser_fill', field('email'), { text: 'octavia@example.test' }],
      ['browser_click', has(/button "Insert"/)],
    ], check: () => one("select email from members where name='Octavia Butler'") === 'octavia@example.test' },
    editRow("correct a book's year", 'books', /Neuromancer/, 'year', '1985', () => one("select year from books where title='Neuromancer'") === '1985'),
    editRow("change a member's email", 'members', /Iain Banks/, 'email', 'iain.banks@example.test', () => one("select email from members where name='Iain Banks'") === 'iain.banks@example.test'),
    { name: 'delete a book', url: at('table=books&action=row_view'), steps: [
      ['browser_click', sameRow(/Hyperion/, /link "Delete"/)],
      ['browser_click', has(/button "Confirm"/)],
    ], check: () => one("select count(*) from books where title='Hyperion'") === '0' },
    tableSql('update by a table\'s SQL', 'books', "UPDATE books SET author = 'Frank Patrick Herbert' WHERE title = 'Dune'", () => one("select author from books where title='Dune'") === 'Frank Patrick Herbert'),
    { name: 'insert by the database SQL', url: at('view=sql'), steps: [
      ['browser_fill', sqlBox, { text: "INSERT INTO loans (book_id, member_id, due) VALUES (2, 2, '2027-01-15')" }],
      ['browser_click', near(/Delimiter/, /button "Go"/, 3)],
    ], check: () => one("select count(*) from loans where due='2027-01-15'") === '1' },
    { name: 'create a view by SQL', url: at('view=sql'), steps: [
      ['browser_fill', sqlBox, { text: 'CREATE VIEW recent_books AS SELECT title FROM books WHERE year > 1980' }],
      ['browser_click', near(/Delimiter/, /button "Go"/, 3)],
    ], check: () => one("select count(*) from sqlite_master where type='view' and name='recent_books'") === '1' },
    { name: 'rename a table', url: at('table=loans&action=table_rename'), steps: [
      ['browser_fill', near(/Rename table/, /textbox/, 3), { text: 'borrowings' }],
      ['browser_click', has(/button "Rename"/)],
    ], check: () => one("select count(*) from sqlite_master where type='table' and name='borrowings'") === '1' },
    { name: 'empty a table', url: at('table=borrowings&action=table_empty'), steps: [
      ['browser_click', has(/button "Confirm"/)],
    ], check: () => one('select count(*) from borrowings') === '0' },
    { name: 'create a table', url: at(''), steps: [
      ['browser_fill', near(/Name:/, /textbox/, 2), { text: 'authors' }],
      ['browser_fill', near(/Number of Fields:/, /textbox/, 2), { text: '1' }],
      ['browser_click', near(/Number of Fields:/, /button "Go"/, 3)],
      ['browser_fill', (line, before) => /textbox/.test(line) && before.some((b) => /Field/.test(b)), { text: 'name' }],
      ['browser_click', after(/^\s*- cell\b/, /button "Create"/)],
    ], check: () => one("select count(*) from pragma_table_info('authors') where name='name'") === '1' },
    { name: 'add a column', url: at('table=members&action=column_view'), steps: [
      ['browser_click', near(/field\(s\) at end of table/, /button "Go"/, 2)],
      ['browser_fill', (line, before) => /textbox/.test(line) && before.some((b) => /Field/.test(b)), { text: 'phone' }],
      ['browser_click', has(/button "Add Field|button "Add/)],
    ], check: () => one("select count(*) from pragma_table_info('members') where name='phone'") === '1' },
    { name: 'create an index', url: at('table=books&action=column_view'), steps: [
      ['browser_click', near(/Create an index on/, /button "Go"/, 4)],
      ['browser_fill', near(/Index name|Name/, /textbox/, 3), { text: 'books_author' }],
      ['browser_select_option', after(/Define index column/, /combobox/), { value: 'author' }],
      ['browser_click', has(/button "Create Index"/)],
    ], check: () => one("select count(*) from sqlite_master where type='index' and name='books_author'") === '1' },
    { name: 'drop a table', url: at('table=authors&action=table_drop'), steps: [
      ['browser_click', has(/button "Confirm"/)],
    ], check: () => one("select count(*) from sqlite_master where name='authors'") === '0' },
    { name: 'create a database', url: at(''), steps: [
      ['browser_fill', near(/Create New Database/, /textbox/, 8), { text: 'archive' }],
      ['browser_click', near(/Create New Database/, /button "Create"/, 10)],
    ], check: () => fs.readdirSync(path.dirname(app.db)).some((f) => /^archive(\.|$)/.test(f)) },
  ];
}
