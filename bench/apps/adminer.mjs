// Owns: Adminer (Debian package `adminer`), the database admin: a SQLite database of its own
// per run, served by `php -S` with Adminer's own password-less-database login plugin, and
// its tasks, each judged from the database itself (`sqlite3`).
// Must never: judge a task from what a tool answered.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { has, after, near, sameRow, inRow } from '../mcp-sides.mjs';
import { phpServer, debVersion } from './serve.mjs';

export const name = 'adminer';
export const PASSWORD = 'Adm1n-sqlite-42';

const SEED = `
create table customers (id integer primary key, name text not null, email text, city text);
create table products (id integer primary key, name text not null, price real, stock integer);
create table orders (id integer primary key, customer_id integer references customers(id), total real, status text);
insert into customers (name, email, city) values ('Ada Lovelace', 'ada@example.test', 'London'), ('Alan Turing', 'alan@example.test', 'Manchester'), ('Grace Hopper', 'grace@example.test', 'Arlington');
insert into products (name, price, stock) values ('Notebook', 3.5, 120), ('Pencil', 0.8, 500), ('Stapler', 12.0, 15);
insert into orders (customer_id, total, status) values (1, 7.0, 'paid'), (2, 12.0, 'open'), (3, 4.0, 'open');
`;

export async function start(dir, port) {
  const db = path.join(dir, 'shop.sqlite');
  execFileSync('sqlite3', [db], { input: SEED });
  // Adminer refuses a database without a password unless a plugin says which one; this is
  // the one its package ships (plugins/login-password-less.php), as its sqlite.php example.
  fs.writeFileSync(path.join(dir, 'index.php'), `<?php
function adminer_object() {
  include_once '/usr/share/adminer/plugins/plugin.php';
  include_once '/usr/share/adminer/plugins/login-password-less.php';
  include_once '/usr/share/adminer/plugins/version-noverify.php';
  return new AdminerPlugin(array(new AdminerLoginPasswordLess(password_hash(${JSON.stringify(PASSWORD)}, PASSWORD_DEFAULT)), new AdminerVersionNoverify()));
}
include '/usr/share/adminer/adminer.php';
`);
  const server = await phpServer(port, 'index.php', { cwd: dir });
  const sql = (q) => execFileSync('sqlite3', [db, q], { encoding: 'utf8' }).trim();
  return { url: (p = '') => `http://127.0.0.1:${port}/${p}`, sql, db, version: debVersion('adminer'), stop: server.stop };
}

/** An edit form's value box for column `col`: the text box of its row (after its function box). */
const value = (col) => inRow(new RegExp(`rowheader "${col}"`), /textbox|spinbutton/);
/** The SQL editor (a contenteditable `<pre>` over a hidden textarea, synchronised on key
 * events): the box just above the form's button, not the name box above it. (Playwright's
 * snapshot shows it as an empty paragraph, ours as a text box: either is taken.) */
const editor = (line, before, next) => /textbox|paragraph \[ref=[^\]]*\]$/.test(line) && next.some((n) => /button "(Save|Execute)"/.test(n)) && !/Name:/.test(before.at(-1) || '');

export function tasks(app) {
  const one = (q) => app.sql(q);
  const at = (p) => `?sqlite=&username=&db=${encodeURIComponent(app.db)}${p}`;
  const sqlCommand = (name, command, check) => ({ name, url: at('&sql='), steps: [
    ['browser_type', editor, { text: command }],
    ['browser_click', has(/button "Execute"/)],
  ], check });
  return [
    { name: 'log in and add a customer', always: true, url: '?', steps: [
      ['browser_select_option', near(/"System"/, /combobox/), { value: 'SQLite 3' }],
      ['browser_fill', near(/"Password"/, /textbox/), { text: PASSWORD }],
      ['browser_fill', near(/"Database"/, /textbox/), { text: app.db }],
      ['browser_click', has(/button "Login"/)],
      ['browser_click', has(/link "customers"/)],
      ['browser_click', has(/link "New item"/)],
      ['browser_fill', value('name'), { text: 'Edsger Dijkstra' }],
      ['browser_fill', value('email'), { text: 'edsger@example.test' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select count(*) from customers where name='Edsger Dijkstra' and email='edsger@example.test'") === '1' },
    { name: 'add a product', url: at('&edit=products'), steps: [
      ['browser_fill', value('name'), { text: 'Paper clips' }],
      ['browser_fill', value('price'), { text: '1.25' }],
      ['browser_fill', value('stock'), { text: '900' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select price || '/' || stock from products where name='Paper clips'") === '1.25/900' },
    { name: "edit a customer's city", url: at('&select=customers'), steps: [
      ['browser_click', sameRow(/Alan Turing/, /link "edit"/)],
      ['browser_fill', value('city'), { text: 'Wilmslow' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select city from customers where name='Alan Turing'") === 'Wilmslow' },
    { name: "edit an order's status", url: at('&select=orders'), steps: [
      ['browser_click', sameRow(/cell "2"/, /link "edit"/)],
      ['browser_fill', value('status'), { text: 'shipped' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one('select status from orders where id=2') === 'shipped' },
    { name: 'change a price', url: at('&select=products'), steps: [
      ['browser_click', sameRow(/Notebook/, /link "edit"/)],
      ['browser_fill', value('price'), { text: '4.25' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select price from products where name='Notebook'") === '4.25' },
    { name: 'add two products in a row', url: at('&edit=products'), steps: [
      ['browser_fill', value('name'), { text: 'Eraser' }],
      ['browser_fill', value('price'), { text: '0.5' }],
      ['browser_click', has(/button "Save and insert next"/)],
      ['browser_fill', value('name'), { text: 'Ruler' }],
      ['browser_fill', value('price'), { text: '2' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select count(*) from products where name in ('Eraser', 'Ruler')") === '2' },
    sqlCommand('restock by an SQL command', "UPDATE products SET stock = stock + 10 WHERE name = 'Stapler'", () => one("select stock from products where name='Stapler'") === '25'),
    sqlCommand('insert by an SQL command', "INSERT INTO customers (name, email, city) VALUES ('Barbara Liskov', 'barbara@example.test', 'Boston')", () => one("select city from customers where name='Barbara Liskov'") === 'Boston'),
    { name: 'create a table', url: at('&create='), steps: [
      ['browser_fill', after(/Table name:/, /textbox/), { text: 'suppliers' }],
      ['browser_fill', has(/textbox "Column name"/), { text: 'name' }],
      ['browser_select_option', has(/combobox "Type"/), { value: 'text' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select count(*) from sqlite_master where type='table' and name='suppliers'") === '1' && one("select count(*) from pragma_table_info('suppliers') where name='name'") === '1' },
    sqlCommand('add a column by an SQL command', 'ALTER TABLE customers ADD COLUMN phone text', () => one("select count(*) from pragma_table_info('customers') where name='phone'") === '1'),
    sqlCommand('create an index by an SQL command', 'CREATE INDEX orders_status ON orders (status)', () => one("select count(*) from sqlite_master where type='index' and name='orders_status'") === '1'),
    { name: 'create a view', url: at('&view='), steps: [
      ['browser_fill', after(/Name:/, /textbox/), { text: 'open_orders' }],
      ['browser_type', editor, { text: "SELECT * FROM orders WHERE status = 'open'" }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select count(*) from sqlite_master where type='view' and name='open_orders'") === '1' },
    { name: 'set a field to NULL', url: at('&select=customers'), steps: [
      ['browser_click', sameRow(/Grace Hopper/, /link "edit"/)],
      ['browser_select_option', near(/rowheader "email"/, /combobox/, 6), { value: 'NULL' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select email is null from customers where name='Grace Hopper'") === '1' },
    { name: 'clone a row', url: at('&select=products'), steps: [
      ['browser_click', sameRow(/Pencil/, /checkbox/)],
      ['browser_click', has(/button "Clone"/)],
      ['browser_fill', value('name'), { text: 'Blue pencil' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select price from products where name='Blue pencil'") === '0.8' },
    { name: 'rename a table', url: at('&create=suppliers'), steps: [
      ['browser_fill', after(/Table name:/, /textbox/), { text: 'vendors' }],
      ['browser_click', has(/button "Save"/)],
    ], check: () => one("select count(*) from sqlite_master where type='table' and name='vendors'") === '1' },
  ];
}
