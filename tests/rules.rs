//! One rule per case: literal HTML → the exact state, for both sources. Each case's HTML is
//! rendered in real Chromium by `./build.sh capture-rules` (www-tests/capture-rules.mjs,
//! the extension's own capture code and DOM walk) into tests/captures/rules.json.gz; the
//! native suite renders both observations and compares whole states (`expect_test`;
//! `UPDATE_EXPECT=1 cargo test --test rules` rewrites expectations, to be read before
//! committing). A case whose HTML changed since the capture fails until it is re-captured.
//!
//! `rule(name, html, expect)`: both sources must give `expect`.
//! `rule2(name, html, ax, dom)`: where the sources legitimately differ.
//! `walk_rule(name, html, dom)`: the walk alone, where Chromium's answer is not stable.
//! `scoped(name, selector, html, expect)`: a selector-narrowed read (both sources).

mod common;
use common::*;
use expect_test::{expect, Expect};
use pcc::Collector;
use std::collections::HashMap;
use std::sync::OnceLock;

struct Case {
    html: String,
    ax: String,
    dom: String,
}

fn cases() -> &'static HashMap<String, Case> {
    static CASES: OnceLock<HashMap<String, Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let all = capture("rules");
        let v: serde_json::Value = serde_json::from_str(&all).expect("rules capture is JSON");
        v.as_object()
            .expect("an object of cases")
            .iter()
            .map(|(k, c)| {
                (k.clone(), Case { html: c["html"].as_str().unwrap_or("").to_string(), ax: c["ax"].to_string(), dom: c["dom"].to_string() })
            })
            .collect()
    })
}

fn case(name: &str, html: &str) -> &'static Case {
    let c = cases().get(name).unwrap_or_else(|| panic!("case {name} not captured: run ./build.sh capture-rules"));
    assert_eq!(c.html, html, "case {name} changed since its capture: run ./build.sh capture-rules");
    c
}

/// The state (or the error code) of one observation.
fn render(obs: &str) -> String {
    let mut c = Collector::new("t");
    match c.snapshot(obs, &opts(None, None)) {
        Ok(r) => r.state.unwrap_or_default(),
        Err(e) => format!("error {}", e.code.as_str()),
    }
}

/// `RULES_SHOW=1 cargo test --test rules -- --nocapture` prints both renders of each case.
fn show(name: &str, ax: &str, dom: &str) {
    if std::env::var_os("RULES_SHOW").is_some() {
        println!("== {name} (ax)\n{ax}\n== {name} (dom)\n{dom}\n");
    }
}

fn rule(name: &str, html: &str, expect: Expect) {
    let c = case(name, html);
    let (ax, dom) = (render(&c.ax), render(&c.dom));
    show(name, &ax, &dom);
    expect.assert_eq(&ax);
    assert_eq!(dom, ax, "case {name}: the DOM source differs from the AX source");
}

fn rule2(name: &str, html: &str, ax: Expect, dom: Expect) {
    let c = case(name, html);
    show(name, &render(&c.ax), &render(&c.dom));
    ax.assert_eq(&render(&c.ax));
    dom.assert_eq(&render(&c.dom));
}

/// The walk's rule where Chromium's own answer varies from one run to the next (its tree is
/// not asserted: a capture of it would make the case flaky).
fn walk_rule(name: &str, html: &str, dom: Expect) {
    let c = case(name, html);
    show(name, &render(&c.ax), &render(&c.dom));
    dom.assert_eq(&render(&c.dom));
}

fn scoped(name: &str, _selector: &str, html: &str, expect: Expect) {
    rule(name, html, expect)
}

// ── 1. Inline text is joined the way it renders ─────────────────────────────────────────

#[test]
fn inline_spans_add_no_spaces() {
    rule(
        "inline_spans",
        r#"<p>Enter "<span>Dannie</span>" here. Price: $<span>12</span>.99 and <i>it</i>alic.</p>"#,
        expect![[r#"- paragraph: Enter "Dannie" here. Price: $12.99 and italic."#]]
    );
}

/// A `<q>` renders its quotation marks (generated content Chromium reads as text), nested
/// ones the inner pair; in running text and in a name alike.
#[test]
fn quotations_show_their_marks() {
    rule("quotation_marks", r#"<p>He said <q>hello there</q> to me.</p><p>A <q>nested <q>inner</q> quote</q>.</p><a href="/x">Link <q>quoted</q></a>"#, expect![[r#"
        - paragraph: He said “hello there” to me.
        - paragraph: A “nested ‘inner’ quote”.
        - link "Link “quoted”" [href=/x] [ref=e1]"#]]);
}

#[test]
fn block_boundaries_separate_text() {
    rule("block_boundaries", r#"<div><div>First block</div><div>Second block</div><span>inline</span><span>run</span></div>"#, expect!["- text: First block Second block inlinerun"]);
}

#[test]
fn link_names_join_inline_parts() {
    rule("link_inline_name", r#"<a href="/x">Read <b>more</b>!</a> <button>Sa<i>ve</i></button>"#, expect![[r#"
        - link "Read more!" [href=/x] [ref=e1]
        - button "Save" [ref=e2]"#]]);
}

/// A name that says its words twice is said as the browser computes it: a place ("Bora
/// Bora"), or an icon's title beside the same text. (Saying it once saved 0.09% of the
/// corpus's state and named "Bora Bora" "Bora".)
#[test]
fn a_name_that_repeats_its_words_is_kept_whole() {
    rule("doubled_words_name", r#"<a href="/b">Bora Bora</a> <a href="/s"><span>Search</span> <span>Search</span></a>"#, expect![[r#"
        - link "Bora Bora" [href=/b] [ref=e1]
        - link "Search Search" [href=/s] [ref=e2]"#]]);
}

#[test]
fn a_link_repeated_in_another_container_keeps_its_line() {
    // Twins are said once inside one card only: a "there is a page named X" line, then the
    // search hit X, or two list items that link one page, are each a line of their own (a hit
    // without its link could not be followed or found).
    rule(
        "link_twins_apart",
        r#"<p>There is a page named <a href="/wiki/Tide">Tide</a> on this wiki.</p><ul><li><a href="/wiki/Tide">Tide</a> (3 KB)</li><li><a href="/wiki/Moon">Moon</a></li><li><a href="/wiki/Moon">Moon</a></li></ul>"#,
        expect![[r#"
            - paragraph
              - text: There is a page named
              - link "Tide" [href=/wiki/Tide] [ref=e1]
              - text: on this wiki.
            - listitem
              - link "Tide" [href=/wiki/Tide] [ref=e2]
              - text: (3 KB)
            - link "Moon" [href=/wiki/Moon] [ref=e3]
            - link "Moon" [href=/wiki/Moon] [ref=e4]"#]],
    );
}

// ── 2. Containers keep their name ───────────────────────────────────────────────────────

#[test]
fn a_heading_and_the_link_it_is_named_by_both_keep_the_name() {
    rule("heading_link", r#"<h2><a href="/story">Storm hits coast</a></h2><p>Body text.</p>"#, expect![[r#"
        - heading "Storm hits coast" [level=2]
          - link "Storm hits coast" [href=/story] [ref=e1]
        - paragraph: Body text."#]]);
}

#[test]
fn heading_with_text_and_link_keeps_its_name() {
    rule("heading_text_link", r#"<h3>Breaking: <a href="/s">Storm</a></h3>"#, expect![[r#"
        - heading "Breaking: Storm" [level=3]
          - link "Storm" [href=/s] [ref=e1]"#]]);
}

// ── 3. Chromium-internal roles never leak ───────────────────────────────────────────────

#[test]
fn layout_tables_fold_away() {
    rule(
        "layout_table",
        r#"<table><tr><td>Left cell</td><td><a href="/a">A link</a></td></tr></table>"#,
        expect![[r#"
            - text: Left cell
            - link "A link" [href=/a] [ref=e1]"#]]
    );
}

/// A layout table's cell is named by its author's aria-label or aria-labelledby (Chromium's
/// name for it), not by its title (Chromium's description, which names only a nameless box).
#[test]
fn a_layout_cell_keeps_its_authored_name() {
    rule(
        "layout_cell_named",
        r#"<table><tr><td aria-label="Price" title="Tip">$5</td><td aria-labelledby="q" title="Tip">2</td><td title="Only a title">x</td></tr></table><p id="q">Quantity</p>"#,
        expect![[r#"
            - generic "Price"
              - text: $5
            - generic "Quantity"
              - text: 2
            - generic "Only a title"
              - text: x
            - paragraph: Quantity"#]],
    );
}

#[test]
fn a_link_that_repeats_its_neighbour_is_said_once() {
    // A card's image link beside its title link to the same place, or a link repeated after
    // its text, adds a line and a ref but nothing to do: the named one stays, said once. A
    // script's links (`#`, `javascript:`) lead nowhere a target names: two "Edit" links with
    // `href='#'` are two controls and both keep their lines.
    rule(
        "link_twins",
        r#"<a href="/story"><img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" alt="" width="20" height="20"></a><a href="/story">Story</a><p><a href="/p">Product</a> Product <a href="/p">Product</a></p><p><a href='#'>Edit</a> <a href='#'>Edit</a> <a href="javascript:void 0">Open</a> <a href="javascript:void 0">Open</a></p>"#,
        expect![[r#"
            - link "Story" [href=/story] [ref=e1]
            - paragraph
              - link "Product" [href=/p] [ref=e2]
            - paragraph
              - link "Edit" [href=#] [ref=e3]
              - link "Edit" [href=#] [ref=e4]
              - link "Open" [ref=e5]
              - link "Open" [ref=e6]"#]],
    );
}

#[test]
fn a_document_inside_the_page_is_a_wrapper_unless_named() {
    // `role=document` (read-mode content inside an application, an embedded letter): named,
    // it keeps its line as a region does; unnamed, its content is lifted like a group's.
    // `suggestion` (ARIA 1.3: a proposed insertion or deletion) folds like `<ins>` and `<del>`.
    rule(
        "document_role",
        r#"<div role="document" aria-label="Terms"><p>Read these terms.</p></div><div role="document"><p>Plain text.</p></div><p>A <span role="suggestion"><ins>new</ins></span> word.</p>"#,
        expect![[r#"
            - document "Terms"
              - paragraph: Read these terms.
            - paragraph: Plain text.
            - paragraph: A new word."#]],
    );
    scoped("document_role_scoped", "[role=document]", r#"<div role="document">x</div>"#, expect!["- document: x [ref=e1]"]);
    scoped("suggestion_scoped", "[role=suggestion]", r#"<p>A <span role="suggestion">new</span> word.</p>"#, expect!["- suggestion: new [ref=e1]"]);
    // A collapsed list box shows its first OPTIONS_SHOWN - 2 options, its last two and the
    // selected one, whatever the budget (a run of at least RUN_MIN folded into a note: 2 left
    // out between 10 and 13 are shown); a read scoped to it shows them all.
    rule("long_list_box_folds", r#"<label>Rows <select><option>1</option><option>2</option><option>3</option><option>4</option><option>5</option><option>6</option><option>7</option><option>8</option><option>9</option><option>10</option><option>11</option><option>12</option><option selected>13</option><option>14</option><option>15</option><option>16</option><option>17</option><option>18</option><option>19</option><option>20</option><option>21</option><option>22</option><option>23</option><option>24</option><option>25</option><option>26</option><option>27</option><option>28</option><option>29</option><option>30</option></select></label>"#, expect![[r#"
        - combobox "Rows" value="13" [expanded=false] [ref=e1]
          - option "1"
          - option "2"
          - option "3"
          - option "4"
          - option "5"
          - option "6"
          - option "7"
          - option "8"
          - option "9"
          - option "10"
          - option "11"
          - option "12"
          - option "13" [selected]
          - note: 15 more options in "Rows" [more=e1]
          - option "29"
          - option "30""#]]);
    scoped("long_list_box_scoped", "select", r#"<select aria-label="Rows"><option>1</option><option>2</option><option>3</option><option>4</option><option>5</option><option>6</option><option>7</option><option>8</option><option>9</option><option>10</option><option>11</option><option>12</option><option>13</option><option>14</option><option>15</option><option>16</option><option>17</option><option>18</option><option>19</option><option>20</option><option>21</option><option>22</option><option>23</option><option>24</option><option>25</option><option>26</option><option>27</option><option>28</option><option>29</option><option>30</option></select>"#, expect![[r#"
        - combobox "Rows" value="1" [expanded=false] [ref=e1]
          - option "1" [selected]
          - option "2"
          - option "3"
          - option "4"
          - option "5"
          - option "6"
          - option "7"
          - option "8"
          - option "9"
          - option "10"
          - option "11"
          - option "12"
          - option "13"
          - option "14"
          - option "15"
          - option "16"
          - option "17"
          - option "18"
          - option "19"
          - option "20"
          - option "21"
          - option "22"
          - option "23"
          - option "24"
          - option "25"
          - option "26"
          - option "27"
          - option "28"
          - option "29"
          - option "30""#]]);
}

#[test]
fn svg_elements_are_named_by_their_title_and_the_root_is_an_image() {
    // svg-aam as Chromium maps it: a <title> child names the root, a group or a shape; the
    // root is an image (shown when named), a named <g> a group, an <image> an image; an
    // unnamed shape says nothing.
    rule(
        "svg_titles",
        r#"<svg width="20" height="20"><title>Logo</title><circle cx="10" cy="10" r="5"/></svg><a href="/x"><svg width="16" height="16"><title>Home</title><path d="M0 0h16v16H0z"/></svg></a><svg width="30" height="30"><g><title>Group one</title><rect width="10" height="10"/></g><rect width="5" height="5"><title>Square</title></rect></svg><svg role="img" aria-label="Chart" width="10" height="10"><rect width="10" height="10"/></svg><svg width="10" height="10" aria-label="Named svg"><rect width="10" height="10"/></svg><svg width="10" height="10"><image aria-label="Photo" width="10" height="10" href="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="></image></svg>"#,
        expect![[r#"
            - img "Logo"
            - link "Home" [href=/x] [ref=e1]
            - group "Group one"
            - generic "Square"
            - img "Chart"
            - img "Named svg"
            - img "Photo""#]],
    );
}

#[test]
fn aria_labelledby_reads_a_hidden_target_whole() {
    // aria-labelledby reads what it points at even when the page hides it (display:none,
    // visibility:hidden, the hidden attribute), as Chromium computes the name.
    rule("aria_labelledby_reads_a_hidden_target_whole", r#"<div id="h1" style="display:none">foo bar baz</div><button aria-labelledby="h1">x</button><div id="h2" style="visibility:hidden">vis <b>hidden</b></div><button aria-labelledby="h2">y</button><span hidden id="h3">Hidden <b>label</b></span><input aria-labelledby="h3">"#, expect![[r#"
        - button "foo bar baz" [ref=e1]
        - button "vis hidden" [ref=e2]
        - textbox "Hidden label" [ref=e3]"#]]);
}

/// `region` and `form` are landmarks only with a name their author gave (aria-label,
/// aria-labelledby, title); without one the next role of the list counts, else the
/// element's own, as Chromium computes it.
#[test]
fn an_unnamed_region_or_form_role_falls_back_to_the_next_one() {
    rule(
        "region_form_fallback",
        r#"<div role="region">Plain</div><div role="region group">Grouped</div><div role="ReGiOn navigation">Nav</div><div role="region" title="Titled">Titled content</div><div role="form" aria-label="Signup"><input aria-label="Email"></div><div role="form group"><input aria-label="Code"></div>"#,
        expect![[r#"
            - text: Plain Grouped
            - navigation: Nav
            - region "Titled"
              - text: Titled content
            - form "Signup"
              - textbox "Email" [ref=e1]
            - textbox "Code" [ref=e2]"#]],
    );
}

/// `none` / `presentation` gives way to a global ARIA attribute only (Chromium's list: a
/// property of the element's own role, `aria-level`, does not undo it).
#[test]
fn only_a_global_aria_attribute_undoes_a_presentational_role() {
    rule(
        "presentational_global_attributes",
        r#"<h1 role="none" aria-level="2">Level only</h1><h2 role="none" aria-describedby="d">Described</h2><p id="d">Details</p><h3 role="presentation" aria-disabled="true">Disabled only</h3>"#,
        expect![[r#"
            - text: Level only
            - heading "Described" [level=2]
            - paragraph: Details
            - text: Disabled only"#]],
    );
}

/// A `title` names no role ARIA prohibits naming (a paragraph, inline semantics, a table's
/// caption: Chromium reads their content), while an aria-label does (measured in Chromium).
#[test]
fn a_title_names_no_role_that_prohibits_a_name() {
    rule(
        "title_on_unnamed_roles",
        r#"<p title="Tip">Paragraph text</p><p aria-label="Labelled">Labelled text</p><code title="Tip">x = 1</code><figure><img alt="Chart" src="data:,"><figcaption title="Caption tip">Sales by year</figcaption></figure>"#,
        expect![[r#"
            - paragraph: Paragraph text
            - paragraph "Labelled"
              - text: Labelled text
            - text: x = 1
            - img "Chart"
            - caption "Caption tip""#]],
    );
}

#[test]
fn named_groups_panels_and_landmarks_keep_their_lines() {
    // A group, a tab panel, a navigation region keep their line (an unnamed group around one
    // control folds into it: it says nothing the control does not).
    rule("named_groups_panels_and_landmarks_keep_their_lines", r#"<div role="group" aria-label="Options"><button>A</button><button>B</button></div><div role="group"><button>C</button></div><fieldset><legend>Choose</legend><label><input type="radio" name="r"> One</label></fieldset><div role="tabpanel" aria-label="Panel 1"><p>Content one</p></div><div role="tabpanel"><p>Content two</p></div><div role="navigation"><a href="/a">Nav A</a></div><nav><a href="/b">Nav B</a></nav>"#, expect![[r#"
        - group "Options"
          - button "A" [ref=e1]
          - button "B" [ref=e2]
        - button "C" [ref=e3]
        - group "Choose"
          - radio "One" [ref=e4]
        - tabpanel "Panel 1"
          - paragraph: Content one
        - tabpanel
          - paragraph: Content two
        - navigation
          - link "Nav A" [href=/a] [ref=e5]
        - navigation
          - link "Nav B" [href=/b] [ref=e6]"#]]);
}

#[test]
fn title_names_what_has_no_other_name() {
    // `title` is the name of last resort: a button, a field, an empty link.
    rule("title_names_what_has_no_other_name", r#"<div role="button" title="Close" tabindex="0"></div><input type="text" title="Search terms"><a href="/t" title="Tip"></a>"#, expect![[r#"
        - button "Close" [ref=e1]
        - textbox "Search terms" [ref=e2]
        - link "Tip" [href=/t] [ref=e3]"#]]);
}

#[test]
fn states_show_as_chromium_computes_them() {
    // Pressed, mixed, expanded, disabled, checked, selected, level: as Chromium computes them
    // (an option outside a listbox has no selection to show: see the next case).
    rule("states_show_as_chromium_computes_them", r#"<button aria-pressed="true">Bold</button><button aria-pressed="mixed">Italic</button><button aria-expanded="false">Menu</button><button disabled>Off</button><div role="checkbox" aria-checked="mixed" tabindex="0">Some</div><input type="checkbox" checked aria-label="On"><div role="option" aria-selected="true">Pick</div><h4>Four</h4><div role="heading" aria-level="5">Five</div><a href="/c" aria-current="page">Here</a><div role="treeitem" aria-expanded="true" aria-level="2">Node</div><label><input type="checkbox" disabled> Gray</label><div role="row" aria-selected="true"><span role="cell">C1</span></div><div role="switch" aria-checked="true" tabindex="0">Wifi</div>"#, expect![[r#"
        - button "Bold" [pressed] [ref=e1]
        - button "Italic" [pressed=mixed] [ref=e2]
        - button "Menu" [expanded=false] [ref=e3]
        - button "Off" [disabled] [ref=e4]
        - checkbox "Some" [checked=mixed] [ref=e5]
        - checkbox "On" [checked] [ref=e6]
        - text: Pick
        - heading "Four" [level=4]
        - heading "Five" [level=5]
        - link "Here" [href=/c] [ref=e7]
        - text: Node
        - checkbox "Gray" [disabled] [ref=e8]
        - row [selected]
          - cell "C1"
        - switch "Wifi" [checked] [ref=e9]"#]]);
}

#[test]
fn an_owned_role_outside_its_owner_means_nothing() {
    // ARIA roles that need a container (option in a listbox, treeitem in a tree, listitem in a
    // list) are generic outside it, as in Chromium; a tab, menuitem or gridcell keeps its role.
    rule("an_owned_role_outside_its_owner_means_nothing", r#"<div role="tab" tabindex="0">T1</div><div role="menuitem" tabindex="0">M1</div><div role="menuitemcheckbox" aria-checked="true">M2</div><div role="listitem">L1</div><span role="gridcell">G1</span><div role="option" tabindex="0">O1</div><div role="treeitem" tabindex="0">N1</div><div role="listbox"><div role="group"><div role="option">O2</div></div></div><div role="tree"><div role="group"><div role="treeitem">N2</div></div></div><div role="menu"><div role="group"><div role="menuitem">M3</div></div></div><div role="tablist"><div><div role="tab">T2</div></div></div>"#, expect![[r#"
        - tab "T1" [ref=e1]
        - menuitem "M1" [ref=e2]
        - menuitemcheckbox "M2" [checked] [ref=e3]
        - text: L1
        - gridcell "G1"
        - text: O1 N1
        - listbox [ref=e4]
          - option "O2" [ref=e5]
        - tree
          - treeitem "N2" [ref=e6]
        - menu
          - menuitem "M3" [ref=e7]
        - tablist
          - tab "T2" [ref=e8]"#]]);
}

#[test]
fn unnamed_wrappers_fold_and_widget_containers_stay() {
    // An unnamed group, fieldset, details or address folds into its content: the line would
    // say only its role, and the controls inside keep theirs. A radiogroup and a toolbar stay
    // (they say how their controls behave), and a select's option group stays under it.
    rule("unnamed_wrappers_fold_and_widget_containers_stay", r#"<div role="group"><button>A</button><button>B</button></div><fieldset><input type="checkbox" aria-label="X"><input type="checkbox" aria-label="Y"></fieldset><details open><summary>More</summary><p>Hidden text</p></details><address><a href="mailto:a@b.c">Mail</a> or <a href="/p">Phone</a></address><div role="radiogroup"><label><input type="radio" name="q"> One</label><label><input type="radio" name="q"> Two</label></div><div role="toolbar"><button>T1</button><button>T2</button></div><label for="r1">Row label</label><div role="row" id="r1"><span role="cell">c</span></div><select><optgroup label="Fruit"><option>Apple</option></optgroup></select>"#, expect![[r#"
        - button "A" [ref=e1]
        - button "B" [ref=e2]
        - checkbox "X" [ref=e3]
        - checkbox "Y" [ref=e4]
        - button "More" [expanded] [ref=e5]
        - paragraph: Hidden text
        - link "Mail" [href=mailto:a@b.c] [ref=e6]
        - text: or
        - link "Phone" [href=/p] [ref=e7]
        - radiogroup
          - radio "One" [ref=e8]
          - radio "Two" [ref=e9]
        - toolbar
          - button "T1" [ref=e10]
          - button "T2" [ref=e11]
        - text: Row label
        - row
          - cell "c"
        - combobox value="Apple" [expanded=false] [ref=e12]
          - group "Fruit"
            - option "Apple" [selected]"#]]);
}

#[test]
fn data_tables_keep_rows_and_selection() {
    rule(
        "data_table",
        r#"<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr aria-selected="true"><td>Ada</td><td>3</td></tr><tr><td>Bob</td><td>5</td></tr></tbody></table>"#,
        expect![[r#"
            - table
              - row
                - columnheader "Name"
                - columnheader "Qty"
              - row [selected]
                - cell "Ada"
                - cell "3"
              - row
                - cell "Bob"
                - cell "5""#]]
    );
}

/// A data table's head and foot are row groups (shown when a selector chooses one; a whole
/// read lifts an unnamed row group); its body only when focusable, as Chromium maps them.
#[test]
fn table_head_and_foot_are_row_groups() {
    scoped("thead_scoped", "thead", r#"<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>"#, expect![[r#"
        - rowgroup [ref=e1]
          - row
            - columnheader "A"
            - columnheader "B""#]]);
    scoped("tbody_focusable_scoped", "tbody", r#"<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody tabindex="0"><tr><td>1</td><td>2</td></tr></tbody></table>"#, expect![[r#"
        - rowgroup [ref=e1]
          - row
            - cell "1"
            - cell "2""#]]);
}

/// An SVG `<g>` is a group only when named (a `<title>`, an aria-label); an unnamed one is
/// nothing of its own, as in Chromium's tree (what a selector on it shows).
#[test]
fn an_unnamed_svg_group_is_no_group() {
    scoped("svg_g_scoped", "#g1", r#"<svg width="80" height="60"><g id="g1"><text x="1" y="20">Plain</text></g></svg>"#, expect!["- text: Plain"]);
    scoped("svg_g_titled_scoped", "#g2", r#"<svg width="80" height="60"><g id="g2"><title>Legend</title><text x="1" y="20">Titled</text></g></svg>"#, expect![[r#"
        - group "Legend" [ref=e1]
          - text: Titled"#]]);
}

#[test]
fn date_and_time_inputs_have_aria_roles() {
    rule(
        "date_time_inputs",
        r#"<label>Day <input type="date" value="2013-07-07"></label><label>At <input type="time" value="10:30"></label><label>Colour <input type="color" value='#ff0000'></label>"#,
        expect![[r##"
            - textbox "Day" value="2013-07-07" [type=date] [ref=e1]
            - textbox "At" value="10:30" [type=time] [ref=e2]
            - textbox "Colour" value="#ff0000" [type=color] [ref=e3]"##]]
    );
}

// ── 4. Landmarks and list items ─────────────────────────────────────────────────────────

#[test]
fn only_the_first_summary_of_a_details_is_its_button() {
    // HTML-AAM (WPT html-aam/roles-contextual): a summary that is not its details' first is
    // generic; Chromium makes it a button too. The walk follows the spec.
    rule2("summary_first_only", r#"<summary>Orphan</summary><details open><summary>Toggle</summary><summary>Second</summary>Body</details><details><summary>Closed</summary><summary>Unseen</summary>Inside</details>"#, expect![[r#"
        - text: Orphan
        - button "Toggle" [expanded] [ref=e1]
        - button "Second" [expanded] [ref=e2]
        - text: Body
        - button "Closed" [expanded=false] [ref=e3]"#]], expect![[r#"
        - text: Orphan
        - button "Toggle" [expanded] [ref=e1]
        - text: Second Body
        - button "Closed" [expanded=false] [ref=e2]"#]]);
}

#[test]
fn a_field_referenced_by_labelledby_gives_its_value() {
    // An embedded control gives its value, not its aria-label (accname 2C), but never a
    // sensitive field's: Chromium names the Pay button by the card number; the AX source
    // leaves that name out, the walk never reads it (its content names it).
    rule2("labelledby_field_value", r#"<input value="peanuts" id="f1" aria-label="Snack"><button id="b1" aria-label="Buy" aria-labelledby="b1 f1">x</button><input id="cc" autocomplete="cc-number" value="4111111111111111"><button aria-labelledby="cc">Pay</button>"#, expect![[r#"
        - textbox "Snack" value="peanuts" [ref=e1]
        - button "Buy peanuts" [ref=e2]
        - textbox [ref=e3]
        - button [ref=e4]"#]], expect![[r#"
        - textbox "Snack" value="peanuts" [ref=e1]
        - button "Buy peanuts" [ref=e2]
        - textbox [ref=e3]
        - button "Pay" [ref=e4]"#]]);
}

#[test]
fn a_field_labelled_only_by_the_text_before_it_hides_its_value() {
    // "PIN:" just before an unlabelled field is its label to a reader: the value is a secret
    // (a short one, which names around it must not carry either); "Nickname:" is not.
    rule("labelled_by_preceding_text", r#"<p><span>PIN:</span> <input value="4821"></p><p><span>Nickname:</span> <input value="bobcat"></p><p><span>Card number</span> <input value="5500000000000004"></p>"#, expect![[r#"
        - paragraph
          - text: PIN:
          - textbox [ref=e1]
        - paragraph
          - text: Nickname:
          - textbox value="bobcat" [ref=e2]
        - paragraph
          - text: Card number
          - textbox [ref=e3]"#]]);
}

#[test]
fn a_header_cell_beside_data_cells_heads_its_row() {
    rule("th_row_header", r#"<table><thead><tr><th>Name</th><th>Age</th></tr></thead><tbody><tr><th>Ann</th><td>30</td></tr><tr><th scope="col">Bob</th><td>41</td></tr></tbody><tfoot><tr><th>Sum</th><th>71</th></tr></tfoot></table>"#, expect![[r#"
        - table
          - row
            - columnheader "Name"
            - columnheader "Age"
          - row
            - rowheader "Ann"
            - cell "30"
          - row
            - columnheader "Bob"
            - cell "41"
          - row
            - columnheader "Sum"
            - columnheader "71""#]]);
}

#[test]
fn dfn_is_a_term_and_search_a_landmark() {
    rule("dfn_search", r#"<div><dfn>Widget</dfn></div><search><input type="search" aria-label="Find"></search>"#, expect![[r#"
        - term "Widget"
        - search
          - searchbox "Find" [ref=e1]"#]]);
}

#[test]
fn unnamed_landmarks_keep_their_boundaries() {
    rule(
        "landmarks",
        r#"<header><a href="/">Home</a></header><main><article><h1>Title</h1><p>Para.</p></article><form><input aria-label="Q"></form></main><footer><a href="/about">About</a></footer>"#,
        expect![[r#"
            - banner
              - link "Home" [href=/] [ref=e1]
            - main
              - article
                - heading "Title" [level=1]
                - paragraph: Para.
              - form
                - textbox "Q" [ref=e2]
            - contentinfo
              - link "About" [href=/about] [ref=e3]"#]]
    );
}

#[test]
fn list_items_with_several_lines_keep_their_boundary() {
    rule(
        "list_items",
        r#"<ul><li><a href="/1">One story</a> by Ann</li><li><a href="/2">Two story</a> by Bob</li><li>Plain item</li></ul>"#,
        expect![[r#"
            - listitem
              - link "One story" [href=/1] [ref=e1]
              - text: by Ann
            - listitem
              - link "Two story" [href=/2] [ref=e2]
              - text: by Bob
            - listitem: Plain item"#]]
    );
}

// ── 5. Named generics and abbreviations ────────────────────────────────────────────────

#[test]
fn named_generics_keep_their_name() {
    rule(
        "named_generics",
        r#"<div title="Element title">Inside</div><div aria-label="Rating: 4 of 5" role="img">★★★★☆</div><div aria-label="Rating: 3 of 5">★★★☆☆</div><p>The <abbr title="World Health Organization">WHO</abbr> said.</p>"#,
        expect![[r#"
            - generic "Element title"
              - text: Inside
            - img "Rating: 4 of 5"
            - generic "Rating: 3 of 5"
              - text: ★★★☆☆
            - paragraph: The WHO (World Health Organization) said."#]]
    );
}

// ── 6. Anything a user can click gets a ref ─────────────────────────────────────────────

#[test]
fn clickable_items_get_refs() {
    rule2(
        "clickable_items",
        r#"<ul><li onclick="1">Apple</li><li style="cursor:pointer">Banana</li></ul><table><tr><td onclick="1">Cell action</td></tr></table>"#,
        expect![[r#"
            - listitem "Apple" [ref=e1]
            - listitem "Banana" [ref=e2]
            - clickable "Cell action" [ref=e3]"#]], expect![[r#"
            - listitem "Apple" [ref=e1]
            - listitem "Banana" [ref=e2]
            - clickable "Cell action" [ref=e3]"#]]
    );
}

// ── 7. Inline SVG ───────────────────────────────────────────────────────────────────────

#[test]
fn inline_svg_keeps_links_and_text() {
    rule(
        "inline_svg",
        r#"<svg width="200" height="60"><a href="/chart"><text x="5" y="20">Open chart</text></a><text x="5" y="50">Axis label</text></svg>"#,
        expect![[r#"
            - link "Open chart" [href=/chart] [ref=e1]
            - text: Axis label"#]]
    );
}

// ── 8. Noise ────────────────────────────────────────────────────────────────────────────

#[test]
fn bullets_and_duplicate_nameless_links_are_noise() {
    rule(
        "noise",
        r#"<div><a href="/s1"><img src="x.png" alt=""></a><a href="/s1">Story one</a> <span>•</span> <a href="/s2">Story two</a></div>"#,
        expect![[r#"
            - link "Story one" [href=/s1] [ref=e1]
            - link "Story two" [href=/s2] [ref=e2]"#]]
    );
}

#[test]
fn hrefs_are_short_and_redacted() {
    rule(
        "hrefs",
        r#"<a href="/path/page?utm_source=x&amp;id=7">Same origin</a><a href="https://other.example/a?token=abc123&amp;q=1">Other</a><a href="https://other.example/reset?api_key=K&amp;fbclid=Z">Key</a>"#,
        expect![[r#"
            - link "Same origin" [href=/path/page?id=7] [ref=e1]
            - link "Other" [href=https://other.example/a?token=[redacted]&q=1] [ref=e2]
            - link "Key" [href=https://other.example/reset?api_key=[redacted]] [ref=e3]"#]]
    );
}

// ── 9. A modal dialog says what it hides ────────────────────────────────────────────────

#[test]
fn modal_dialog_says_what_is_behind_it() {
    rule2(
        "modal",
        r#"<p>Background text</p><button>Behind</button><dialog aria-label="Confirm"><p>Sure?</p><button>OK</button></dialog><script>document.querySelector('dialog').showModal()</script>"#,
        expect![[r#"
            - dialog "Confirm"
              - paragraph: Sure?
              - button "OK" [focused] [ref=e1]
            - note: a modal dialog is open; 2 elements behind it are not shown"#]], expect![[r#"
            - dialog "Confirm"
              - paragraph: Sure?
              - button "OK" [focused] [ref=e1]
            - note: a modal dialog is open; 3 elements behind it are not shown"#]]
    );
}

// ── 10. A selector never answers with the whole page ────────────────────────────────────

#[test]
fn selector_on_a_pruned_element_scopes_to_its_content() {
    scoped("scope_pruned", "#wrap", r#"<p>Outside</p><span id="wrap"><span>Inner <a href="/in">link</a></span></span>"#, expect![[r#"
        - text: Inner
        - link "link" [href=/in] [ref=e1]"#]]);
}

#[test]
fn the_chosen_element_shows_as_what_it_is() {
    // What a whole read folds into its content (an unnamed group, emphasis) is shown as what
    // it is when a selector chooses it: the caller asked about that element. A wrapper with
    // no role of its own (a div) still gives only its content.
    scoped("scope_group", "#g", r#"<p>Before</p><div role="group" id="g"><button>One</button><button>Two</button></div>"#, expect![[r#"
        - group [ref=e1]
          - button "One" [ref=e2]
          - button "Two" [ref=e3]"#]]);
    scoped("scope_strong", "#s", r#"<p>Buy <strong id="s">now</strong> today</p>"#, expect!["- strong: now [ref=e1]"]);
    scoped("scope_hr", "#h", r#"<p>Above</p><hr id="h"><p>Below</p>"#, expect!["- separator [ref=e1]"]);
    scoped("scope_caption", "#c", r#"<table><caption id="c">Prices</caption><tr><th>Item</th></tr><tr><td>Tea</td></tr></table>"#, expect!["- caption: Prices [ref=e1]"]);
    scoped("scope_code", "#k", r#"<p>Call <code id="k">run()</code> once</p>"#, expect!["- code: run() [ref=e1]"]);
    scoped("scope_div", "#d", r#"<p>Before</p><div id="d"><p>Inside</p></div>"#, expect!["- paragraph: Inside [ref=e1]"]);
}

#[test]
fn selector_on_an_element_without_content_is_not_found() {
    scoped("scope_hidden", "#gone", r#"<p>Outside</p><div id="gone" aria-hidden="true"><p>Hidden</p></div>"#, expect!["error BROWSER_SELECTOR_NOT_FOUND"]);
}

// ── 11. Typed text in editable elements ─────────────────────────────────────────────────

#[test]
fn structure_names_come_from_legend_and_caption() {
    rule(
        "fieldset_dl",
        r#"<fieldset><legend>Shipping</legend><label>Street <input></label></fieldset><dl><dt>Term</dt><dd>Meaning</dd></dl><table><caption>Prices</caption><tr><th>Item</th></tr><tr><td>Tea</td></tr></table>"#,
        expect![[r#"
            - group "Shipping"
              - textbox "Street" [ref=e1]
            - term "Term"
            - definition: Meaning
            - table "Prices"
              - row
                - columnheader "Item"
              - row
                - cell "Tea""#]],
    );
}

#[test]
fn inline_semantics_fold_into_their_text() {
    // strong, emphasis, time, mark, deletion, insertion, sub/superscript: a whole read folds
    // them into the text around them (the words say it; a line each would split every
    // sentence); an hgroup is an unnamed group. Both sources alike.
    rule(
        "inline_semantics",
        r#"<p>Buy <strong>now</strong>, <em>really</em> at <time>9:00</time>: <mark>hot</mark> <del>$9</del> <s>$8</s> <ins>$7</ins> H<sub>2</sub>O x<sup>2</sup></p><hgroup><h2>Title</h2><p>Tagline</p></hgroup>"#,
        expect![[r#"
            - paragraph: Buy now, really at 9:00: hot $9 $8 $7 H2O x2
            - heading "Title" [level=2]
            - paragraph: Tagline"#]],
    );
}

#[test]
fn an_indeterminate_progress_bar_says_loading() {
    // No value to show, but "something is loading" is worth its line; a separator is not.
    rule("progress_indeterminate", r#"<p>Results</p><progress></progress><hr><progress value="3" max="10"></progress>"#, expect![[r#"
        - paragraph: Results
        - progressbar
        - progressbar value="3""#]]);
}

#[test]
fn a_row_keeps_its_own_label_but_not_its_cells_words() {
    // A row's name from content only repeats its cells (dropped); an aria-label is the
    // author's name for the row (WPT: "label valid on tr element").
    rule(
        "row_label",
        r#"<table><tr><th>Item</th><th>Price</th></tr><tr aria-label="Totals"><td>All</td><td>9</td></tr><tr><td>Tea</td><td>2</td></tr></table>"#,
        expect![[r#"
            - table
              - row
                - columnheader "Item"
                - columnheader "Price"
              - row "Totals"
                - cell "All"
                - cell "9"
              - row
                - cell "Tea"
                - cell "2""#]],
    );
}

#[test]
fn roles_that_say_what_their_content_is_keep_their_line() {
    // A quotation, a live message (status and `<output>`, log, timer), a note, a tooltip, a
    // definition, a formula: folded, each would read as any other text and the model could not
    // tell a status message or a quotation from the page's own words. One shows only when it
    // holds something (an empty live region says nothing). An unnamed group, figure, or the
    // inline emphasis/strong/code/time/mark roles still fold: their content says it all.
    rule(
        "content_roles",
        r#"<p>Say <strong>this</strong> and <code>that()</code>.</p><blockquote>To be or not</blockquote><output>42</output><div role="status">Saved</div><div role="status"></div><div role="log"><p>Ann: hi</p><p>Bob: yo</p></div><div role="note">Beta feature</div><div role="tooltip">Copy link</div><div role="timer">0:42</div><dl><dt>Tea</dt><dd>A drink</dd></dl><math><mi>x</mi><mo>+</mo><mn>1</mn></math><math aria-label="x squared"><msup><mi>x</mi><mn>2</mn></msup></math><div role="status" aria-label="Upload"></div><div role="group"><button>One</button><button>Two</button></div><figure><img src="/x.png" alt="Chart"></figure>"#,
        expect![[r#"
            - paragraph: Say this and that().
            - blockquote: To be or not
            - status: 42
            - status: Saved
            - log
              - paragraph: Ann: hi
              - paragraph: Bob: yo
            - note: Beta feature
            - tooltip "Copy link"
            - timer: 0:42
            - term "Tea"
            - definition: A drink
            - math: 𝑥 + 1
            - math "x squared"
              - text: 𝑥 2
            - status "Upload"
            - button "One" [ref=e1]
            - button "Two" [ref=e2]
            - img "Chart""#]],
    );
}

#[test]
fn aria_states_and_invalid_roles() {
    rule(
        "aria_states",
        r#"<div role="checkbox" aria-checked="true" tabindex="0">Agree</div><div role="button" aria-pressed="true" tabindex="0">Bold</div><div role="btn">Not a role</div><select size="3" aria-label="Pick"><option>A</option><option>B</option></select>"#,
        expect![[r#"
            - checkbox "Agree" [checked] [ref=e1]
            - button "Bold" [pressed] [ref=e2]
            - text: Not a role
            - listbox "Pick" [ref=e3]
              - option "A" [ref=e4]
              - option "B" [ref=e5]"#]],
    );
}

#[test]
fn line_breaks_separate_text() {
    rule("line_breaks", r#"<p>Line one<br>Line two</p><p><span>12</span> <span>items</span></p>"#, expect![[r#"
        - paragraph: Line one Line two
        - paragraph: 12 items"#]]);
}

#[test]
fn editable_elements_show_typed_text_only_as_a_value() {
    rule(
        "editables",
        r#"<p contenteditable="true">typed in p</p><article contenteditable="true">typed in article</article><table><tr><td contenteditable="true">typed in td</td></tr></table><div contenteditable="true" aria-label="Access token">tok-SECRET-1</div>"#,
        expect![[r#"
            - textbox value="typed in p" [contenteditable] [ref=e1]
            - textbox value="typed in article" [contenteditable] [ref=e2]
            - textbox value="typed in td" [contenteditable] [ref=e3]
            - textbox "Access token" [contenteditable] [ref=e4]"#]]
    );
}

// ── 13. Where the DOM source parted from Chromium on the real pages of the corpus ──────
//
// Found by reading every page of ../shared/corpus/readability/ with both sources in
// document order (`./build.sh corpus`: the agreement per page); each case is one cause, in
// miniature.

#[test]
fn punctuation_in_its_own_span_stays_in_the_text() {
    // Syntax-highlighted code and prices (`$7<span>/</span>month`): a separator alone in an
    // inline wrapper is part of the run it renders in, not a bullet between elements.
    rule(
        "punctuation_span",
        r#"<pre><span style="color:red">var</span> x <span style="color:green">=</span> 1<span style="color:green">;</span></pre><p>$7<span class="u">/</span>month</p>"#,
        expect![[r#"
            - text: var x = 1;
            - paragraph: $7/month"#]],
    );
}

#[test]
fn an_anchor_without_href_that_handles_clicks_is_a_link() {
    rule(
        "anchor_onclick",
        r#"<a onclick="void 0"><span>Share on Facebook</span></a> <a>Plain anchor</a>"#,
        expect![[r#"
            - link "Share on Facebook" [ref=e1]
            - text: Plain anchor"#]],
    );
}

#[test]
fn an_aside_inside_sectioning_content_is_no_landmark_unless_named() {
    rule(
        "aside_scoped",
        r#"<article><p>Story.</p><aside><p>Related one</p></aside><aside aria-label="Poll"><p>Vote</p></aside></article><main><aside><p>Main aside</p></aside></main>"#,
        expect![[r#"
            - article
              - paragraph: Story.
              - paragraph: Related one
              - complementary "Poll"
                - paragraph: Vote
            - main
              - complementary
                - paragraph: Main aside"#]],
    );
}

#[test]
fn a_line_break_in_a_name_is_a_space() {
    rule("name_br", r#"<a href="/dog">Dog face<br>inu</a>"#, expect![[r#"- link "Dog face inu" [href=/dog] [ref=e1]"#]]);
}

#[test]
fn text_transform_shows_as_rendered() {
    rule(
        "text_transform",
        r#"<h2 style="text-transform:uppercase">Archive 2016</h2><p style="text-transform:lowercase">QUIET <b>Please</b></p>"#,
        expect![[r#"
            - heading "ARCHIVE 2016" [level=2]
            - paragraph: quiet please"#]],
    );
}

#[test]
fn text_under_visibility_hidden_is_not_shown() {
    rule(
        "visibility_hidden_text",
        r#"<article><h1>Lorem</h1><div style="visibility:hidden"><p>Hidden words here.</p><p>More <b>hidden</b> words.</p></div><p>Shown words.</p></article>"#,
        expect![[r#"
            - article
              - heading "Lorem" [level=1]
              - paragraph: Shown words."#]],
    );
}

#[test]
fn an_iframes_fallback_content_is_not_shown() {
    rule("iframe_fallback", r#"<p>Before</p><iframe src="about:blank" title="Empty">Iframe fallback text</iframe>"#, expect![[r#"
        - paragraph: Before
        - iframe "Empty""#]]);
}

#[test]
fn a_table_whose_cells_have_borders_or_their_own_background_is_data() {
    // Chromium's guess for tables without header cells: what the cells' boxes look like.
    rule(
        "table_cell_boxes",
        r#"<table border="1"><tr><td>Name</td><td>Age</td></tr><tr><td>Ada</td><td>36</td></tr></table><table><tr><td style="background:#eee">Left</td><td style="background:#eee">Right</td></tr></table><table cellspacing="0"><tr><td style="background:#eee">Flush</td><td style="background:#eee">Cells</td></tr></table>"#,
        expect![[r#"
            - table
              - row
                - cell "Name"
                - cell "Age"
              - row
                - cell "Ada"
                - cell "36"
            - table
              - row
                - cell "Left"
                - cell "Right"
            - text: Flush Cells"#]],
    );
}

#[test]
fn an_images_alt_in_a_name_is_a_word_of_its_own() {
    rule("name_img_alt", r#"<a href="/d"><img src="data:," alt="Dog face" width="10" height="10">inu</a>"#, expect![[r#"
        - link "Dog face inu" [href=/d] [ref=e1]
          - img "Dog face""#]]);
}

#[test]
fn an_aria_label_inside_content_stands_for_that_content() {
    rule("name_inner_aria_label", r#"<button><span aria-label="Close">×</span></button><a href="/t"><svg role="img" aria-label="Twitter" width="10" height="10"></svg></a><a href="/h"><i aria-label="Home"></i> Start</a>"#, expect![[r#"
            - button "Close" [ref=e1]
            - link "Twitter" [href=/t] [ref=e2]
            - link "Home Start" [href=/h] [ref=e3]
              - generic "Home""#]]);
}

#[test]
fn an_svg_title_names_the_svg_and_what_it_is_in() {
    rule("name_svg_title", r#"<a href="/gh"><svg width="10" height="10"><title>GitHub</title><desc>The Octocat</desc><rect width="10" height="10"></rect></svg></a>"#, expect![[r#"- link "GitHub" [href=/gh] [ref=e1]"#]]);
}

#[test]
fn aria_labelledby_reads_hidden_text_it_points_at() {
    rule("name_labelledby_hidden", r#"<span id="lh" hidden>Delete draft</span><button aria-labelledby="lh">x</button><span id="lv" style="display:none">Sort <b>by date</b></span><a href="/s" aria-labelledby="lv">s</a>"#, expect![[r#"
            - button "Delete draft" [ref=e1]
            - link "Sort by date" [href=/s] [ref=e2]"#]]);
}

#[test]
fn embedded_controls_give_their_value_to_a_name_from_content() {
    rule("name_embedded_controls", r#"<div role="button" tabindex="0">Show <select><option>10</option><option selected>25</option></select> rows</div><div role="link" tabindex="0">Go to page <input type="text" value="4" size="2"></div>"#, expect![[r#"
            - button "Show 25 rows" [ref=e1]
              - combobox value="25" [expanded=false] [ref=e2]
                - option "10"
                - option "25" [selected]
            - link "Go to page 4" [ref=e3]
              - textbox value="4" [ref=e4]"#]]);
}

#[test]
fn invisible_text_is_no_part_of_a_name() {
    rule("name_invisible_img", r#"<a href="/i"><img src="data:," alt="Hidden icon" width="10" height="10" style="visibility:hidden">Orders</a>"#, expect![[r#"- link "Orders" [href=/i] [ref=e1]"#]]);
    rule("name_invisible_part", r#"<button>Save<span style="visibility:hidden"> draft</span></button><a href="/v" style="visibility:hidden"><span style="visibility:visible">Visible part</span> hidden part</a>"#, expect![[r#"
        - button "Save" [ref=e1]
        - text: Visible part"#]]);
}

#[test]
fn aria_labelledby_reads_the_aria_label_of_what_it_points_at() {
    rule("name_labelledby_label", r#"<span id="cl" aria-label="Close dialog">×</span><button aria-labelledby="cl">x</button><span id="pr" aria-label="Previous">‹</span><span id="pg">page</span><a href="/p" aria-labelledby="pr pg">‹</a>"#, expect![[r#"
        - text: × (Close dialog)
        - button "Close dialog" [ref=e1]
        - generic "Previous"
        - text: page
        - link "Previous page" [href=/p] [ref=e2]"#]]);
}

#[test]
fn a_label_element_names_its_control_even_when_empty() {
    rule("name_empty_label", r#"<label for="q"><svg width="10" height="10"></svg></label><input id="q" placeholder="Search"><label><input type="submit" value="Go"></label><label><input type="image" alt="Find" src="data:,"></label>"#, expect![[r#"
        - textbox [placeholder="Search"] [ref=e1]
        - button [ref=e2]
        - button [ref=e3]"#]]);
}

#[test]
fn an_empty_value_names_a_submit_button_nothing() {
    rule("name_empty_value", r#"<input type="submit" value="" title="Search"><input type="submit" title="Send"><input type="reset" value="">"#, expect![[r#"
        - button [ref=e1]
        - button "Submit" [ref=e2]
        - button [ref=e3]"#]]);
}

#[test]
fn an_images_title_names_it_inside_a_link() {
    rule("name_img_title", r#"<a href="/home"><img src="data:," title="Back to the home page" width="10" height="10"></a>"#, expect![[r#"- link "Back to the home page" [href=/home] [ref=e1]"#]]);
}

#[test]
fn a_link_around_an_article_takes_no_name_from_it() {
    rule("name_link_article", r#"<a href="/a1"><article><h2>Lytro bought</h2></article></a><a href="/a2"><div><h2>Drifter on Switch</h2></div></a><a href="/a3"><section><p>Tab Active 2</p></section></a>"#, expect![[r#"
        - link [href=/a1] [ref=e1]
          - heading "Lytro bought" [level=2]
        - link "Drifter on Switch" [href=/a2] [ref=e2]
        - link "Tab Active 2" [href=/a3] [ref=e3]"#]]);
}

#[test]
fn a_label_of_blocks_names_its_field_as_rendered() {
    rule("name_label_blocks", r#"<input type="checkbox" id="dc"><label for="dc"><div>Discover</div><div>C</div></label>"#, expect![[r#"- checkbox "Discover C" [ref=e1]"#]]);
}

#[test]
fn a_label_gives_its_field_the_values_of_the_controls_inside_it() {
    rule("name_label_embedded", r#"<label>Flash the screen <select><option>1</option><option selected>2</option></select> times <input type="checkbox"></label><label for="t">Size <input value="12" aria-label="n"> px</label><input id="t">"#, expect![[r#"
        - combobox "Flash the screen times" value="2" [expanded=false] [ref=e1]
          - option "1"
          - option "2" [selected]
        - checkbox [ref=e2]
        - textbox "n" value="12" [ref=e3]
        - textbox "Size 12 px" [ref=e4]"#]]);
}

#[test]
fn a_label_reads_line_breaks_and_image_text_apart_and_leaves_hidden_text_out() {
    rule("name_label_breaks", r#"<label for="f">fruit<span hidden>secret</span><span aria-hidden="true">aside</span></label><input id="f"><label for="h">line<br>break</label><input id="h"><label for="g"><img alt="Pic" src="data:,">text</label><input id="g">"#, expect![[r#"
        - textbox "fruit" [ref=e1]
        - textbox "line break" [ref=e2]
        - img "Pic"
        - text: text
        - textbox "Pic text" [ref=e3]"#]]);
}

#[test]
fn a_label_reads_generated_text() {
    // The names agree; the DOM source still shows a label's own text beside a name made with
    // generated text (the core does not read `::before`/`::after` into text lines).
    rule2("name_label_generated", r#"<style>.fancy::before{content:"fancy "} .blk::after{content:"End";display:block}</style><label class="fancy" for="f">fruit</label><input id="f"><label class="blk" for="g">text</label><input id="g">"#, expect![[r#"
        - textbox "fancy fruit" [ref=e1]
        - textbox "text End" [ref=e2]"#]], expect![[r#"
        - text: fruit
        - textbox "fancy fruit" [ref=e1]
        - text: text
        - textbox "text End" [ref=e2]"#]]);
}

#[test]
fn css_counters_in_generated_text_read_as_their_values() {
    // Numbered headings and lists made with CSS counters (a reset on the parent, increments on
    // the items and on `::before` itself, nested `counters()` with a separator string, a roman
    // style, a `counter-set`, a reset on a sibling): Chromium leaves a counter's value out of
    // names — the strings around it stay — and so does the walk, the separator inside
    // `counters()` included (it read `". Alpha"`).
    rule("name_css_counters", r#"<style>
body{counter-reset:sec}
h2::before{counter-increment:sec;content:counter(sec) ". "}
ol.t{counter-reset:item;list-style:none}
ol.t>li{counter-increment:item}
ol.t>li>a::before{content:counters(item, ".") " "}
.r::before{content:counter(sec, upper-roman) "-"}
.s{counter-set:sec 41}
.p{counter-reset:other 5050}
.p+button::before{counter-increment:other;content:counter(other) " "}
</style><h2>Intro</h2><h2>Usage</h2><ol class="t"><li><a href='/a'>Alpha</a><ol class="t"><li><a href='/b'>Beta</a></li></ol></li><li><a href='/c'>Gamma</a></li></ol><button class="r">Go</button><h2 class="s">Last</h2><span class="p"></span><button>label</button>"#, expect![[r#"
    - heading ". Intro" [level=2]
    - heading ". Usage" [level=2]
    - listitem
      - link "Alpha" [href=/a] [ref=e1]
      - link "Beta" [href=/b] [ref=e2]
    - link "Gamma" [href=/c] [ref=e3]
    - button "-Go" [ref=e4]
    - heading ". Last" [level=2]
    - button "label" [ref=e5]"#]]);
}

#[test]
fn svg_links_image_maps_labels_and_tabs_as_chromium_shows_them() {
    // An SVG link is named by `xlink:title` (the walk left it nameless) or a `<title>` child; a
    // shape with a title is a named generic; an image map's areas have no line in Chromium's
    // tree either; a `<label for>` does not name a row or a document; a `<span role=tab>` is a
    // tab with its ref.
    rule("svg_area_label", r#"<svg width='200' height='60'><a href='/s' xlink:title='Svg link title'><rect width='40' height='40'/></a><a href='/t'><title>Titled svg link</title><circle cx='80' cy='20' r='15'/></a><circle cx='130' cy='20' r='15'><title>Lone circle</title></circle></svg><img src='data:image/gif;base64,R0lGODlhAQABAAAAACw=' usemap='#m' alt='Map' width='100' height='50'><map name='m'><area shape='rect' coords='0,0,50,50' href='/left' alt='Left half'><area shape='rect' coords='50,0,100,50' href='/right'></map><label for='r1'>Row label</label><div role='row' id='r1' tabindex='0'><span role='cell'>c</span></div><label for='d1'>Doc label</label><div role='document' id='d1' tabindex='0'>doc</div><div role='tablist'><div role='tab' tabindex='0'>First tab</div><span role='tab'>Second tab</span></div>"#, expect![[r#"
        - link "Svg link title" [href=/s] [ref=e1]
        - link "Titled svg link" [href=/t] [ref=e2]
        - generic "Lone circle"
        - img "Map"
        - text: Row label
        - row [ref=e3]
          - cell "c"
        - text: Doc label doc
        - tablist
          - tab "First tab" [ref=e4]
          - tab "Second tab" [ref=e5]"#]]);
}

#[test]
fn a_name_from_content_stops_at_an_article_figure_nav_blockquote_or_form() {
    rule("name_stop_probe", r#"<h4>Score <figure><span>Poor</span> <span>Good</span></figure></h4><a href="/l">Items <ul><li>one</li></ul></a><a href="/n">Menu <nav>Home</nav></a><a href="/t">Grid <table><tr><td>cell</td></tr></table></a><a href="/q">Said <blockquote>quote</blockquote></a><button>Send <form>inner</form></button>"#, expect![[r#"
        - heading "Score" [level=4]
        - link "Items one" [href=/l] [ref=e1]
        - link "Menu" [href=/n] [ref=e2]
        - link "Grid cell" [href=/t] [ref=e3]
        - link "Said" [href=/q] [ref=e4]
        - button "Send" [ref=e5]"#]]);
}

// ── 12. The DOM-walk source against Chromium, on a WPT-style name/role sample ───────────
//
// Small cases in the spirit of WPT accname / html-aam: the DOM source's (role, name,
// states) per line against the AX source's. Printed with `RULES_SHOW=1`; the test holds
// the agreement at or above what the closing note of issue 13 reports.

fn sample(name: &'static str, html: &'static str) -> (&'static str, &'static str) {
    (name, html)
}

fn samples() -> Vec<(&'static str, &'static str)> {
    vec![
        sample("s_button_label", r#"<button aria-label="Close dialog">X</button>"#),
        sample("s_labelledby", r#"<span id="a">Billing</span><span id="b">name</span><input aria-labelledby="a b">"#),
        sample("s_label_for", r#"<label for="e">E-mail</label><input id="e" type="email">"#),
        sample("s_label_wrap", r#"<label>Amount <input type="number"> euros</label>"#),
        sample("s_placeholder", r#"<input placeholder="Search the site">"#),
        sample("s_title", r#"<input title="Zip code">"#),
        sample("s_img_alt", r#"<img src="data:," alt="Company logo" width="10" height="10">"#),
        sample("s_link_img", r#"<a href="/home"><img src="data:," alt="Home" width="10" height="10"></a>"#),
        sample("s_hidden_child", r#"<button>Save <span aria-hidden="true">★</span></button><button>Send<span style="display:none"> now</span></button>"#),
        sample("s_sr_only", r#"<h2>Results <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">for shoes</span></h2>"#),
        sample("s_submit", r#"<input type="submit" value="Place order"><input type="reset"><input type="image" alt="Go" src="data:,">"#),
        sample("s_role_button", r#"<div role="button" tabindex="0" aria-label="Dismiss">×</div><span role="link" tabindex="0">More news</span>"#),
        sample("s_mixed", r#"<div role="checkbox" aria-checked="mixed" tabindex="0">All</div><div role="button" aria-pressed="false" tabindex="0">Mute</div>"#),
        sample("s_tabs", r#"<div role="tablist" aria-label="Sections"><div role="tab" aria-selected="true" tabindex="0">One</div><div role="tab" aria-selected="false" tabindex="-1">Two</div></div>"#),
        sample("s_nav_region", r#"<nav aria-label="Main"><a href="/a">A</a></nav><section aria-labelledby="h"><h2 id="h">News</h2><p>Text.</p></section>"#),
        sample("s_range", r#"<label>Volume <input type="range" min="0" max="10" value="3"></label>"#),
        sample("s_meter", r#"<label for="m">Disk</label><meter id="m" value="0.6">60%</meter><label>Load <progress value="30" max="100"></progress></label>"#),
        sample("s_details", r#"<details><summary>More options</summary><p>Hidden</p></details>"#),
        sample("s_textarea", r#"<label>Comment <textarea>Nice</textarea></label>"#),
        sample("s_select_label", r#"<label>Size <select><option>S</option><option selected>M</option></select></label>"#),
        sample("s_menu", r#"<ul role="menu" aria-label="File"><li role="menuitem" tabindex="-1">Open</li><li role="menuitem" tabindex="-1">Close</li></ul>"#),
        sample("s_role_fallback", r#"<div role="btn button" tabindex="0">Fallback</div>"#),
        sample("s_figure", r#"<figure><img src="data:," alt="Chart" width="10" height="10"><figcaption>Sales by month</figcaption></figure>"#),
        sample("s_checkbox_label", r#"<input type="checkbox" id="c" checked><label for="c">Subscribe</label>"#),
        sample("s_radio_group", r#"<div role="radiogroup" aria-label="Plan"><label><input type="radio" name="p" checked> Free</label><label><input type="radio" name="p"> Pro</label></div>"#),
        sample("s_link_title", r#"<a href="/x" title="Settings"><svg width="10" height="10"></svg></a>"#),
        sample("s_heading_levels", r#"<h1>One</h1><div role="heading" aria-level="3">Three</div>"#),
        sample("s_search", r#"<form role="search"><input type="search" aria-label="Query"><button>Go</button></form>"#),
        sample("s_disabled", r#"<button disabled>Off</button><input aria-label="Locked" readonly value="v"><input aria-label="Need" required>"#),
        sample("s_pseudo", r#"<style>.h::before{content:"Home"} .x::after{content:" now"}</style><a class="h" href="/"></a><button class="x">Buy</button>"#),
        sample("s_expanded", r#"<button aria-expanded="false" aria-haspopup="menu">Account</button>"#),
    ]
}

/// (role, name, states) of each line, indentation and refs aside.
fn line_keys(state: &str) -> Vec<String> {
    state
        .lines()
        .map(|l| l.trim_start().trim_start_matches("- ").split(" [ref=").next().unwrap_or("").to_string())
        .filter(|l| !l.is_empty() && !l.starts_with("note:"))
        .collect()
}

#[test]
fn dom_source_names_and_roles_agree_with_chromium_on_the_sample() {
    let (mut lines, mut same_role, mut same_line) = (0, 0, 0);
    for (name, html) in samples() {
        let c = case(name, html);
        let (ax, dom) = (render(&c.ax), render(&c.dom));
        show(name, &ax, &dom);
        let (ax, mut dom) = (line_keys(&ax), line_keys(&dom));
        lines += ax.len();
        for l in &ax {
            let role = l.split([' ', ':']).next().unwrap_or("");
            if let Some(k) = dom.iter().position(|d| d == l) {
                same_line += 1;
                same_role += 1;
                dom.remove(k);
            } else if let Some(k) = dom.iter().position(|d| d.split([' ', ':']).next() == Some(role)) {
                same_role += 1;
                dom.remove(k);
            }
        }
    }
    let (roles, full) = (same_role * 100 / lines.max(1), same_line * 100 / lines.max(1));
    println!("DOM source vs Chromium AX on {} sample lines: roles {roles}%, role+name+states {full}%", lines);
    // Measured when this sample was written: before 92% / 76%, after 100% / 100%.
    assert!(roles >= 98 && full >= 98, "roles {roles}%, full lines {full}%");
}

#[test]
fn svg_use_named_by_the_title_it_references() {
    // A `<use>` of a sprite's `<symbol>` (or a `<g>`) with a `<title>`: Chromium shows the copy
    // as a group named by that title (the walk cannot see the copy, a closed user-agent tree;
    // it writes the group itself); a referenced shape or an untitled symbol shows nothing; a
    // `<use>` with a title of its own is a named generic holding the group. An icon-only
    // link is named by the group (its content); a `role=img` svg gives a button nothing.
    rule("svg_use_title", r#"<svg style='height:0;width:0;position:absolute;visibility:hidden'><symbol id='i-tw' viewBox='0 0 10 10'><title>Twitter</title><path d='M0 0h10v10z'/></symbol><symbol id='i-plain' viewBox='0 0 10 10'><path d='M0 0h10v10z'/></symbol><g id='i-g'><title>Grouped</title><rect width='5' height='5'/></g><path id='i-p' d='M0 0h10v10z'><title>Shape</title></path></svg><button><svg role='img' width='20' height='20'><use href='#i-tw'></use></svg></button><a href='/a'><svg width='20' height='20'><use xlink:href='#i-tw'></use></svg></a><button><svg width='20' height='20'><use href='#i-plain'></use></svg></button><p><svg width='20' height='20'><use href='#i-g'></use></svg><svg width='20' height='20'><use href='#i-p'></use></svg><svg width='20' height='20'><use href='#i-tw'><title>Own</title></use></svg></p>"#, expect![[r#"
        - button [ref=e1]
          - group "Twitter"
        - link "Twitter" [href=/a] [ref=e2]
        - button [ref=e3]
        - paragraph
          - group "Grouped"
          - generic "Own"
            - group "Twitter""#]]);
}

#[test]
fn an_image_role_gives_a_name_from_content_only_its_own_name() {
    // `role=img` makes its content presentational: inside a link or button it gives its own
    // name (aria-label, `title`, an SVG's `<title>`), never its text; unnamed, it has no line.
    rule("name_role_img_content", r#"<a href='/h'><span role='img'>HOT</span> Deals</a><button><span role='img' aria-label='Fire'>F</span> Sale</button><a href='/t'><span role='img' title='Tip'>T</span> Tips</a><button><svg role='img' width='10' height='10'><title>Bell</title><text y='9'>B</text></svg></button><a href='/i'><div role='image'>Pic</div> More</a>"#, expect![[r#"
        - link "Deals" [href=/h] [ref=e1]
        - button "Fire Sale" [ref=e2]
          - img "Fire"
        - link "Tip Tips" [href=/t] [ref=e3]
          - img "Tip"
        - button "Bell" [ref=e4]
        - link "More" [href=/i] [ref=e5]"#]]);
}

#[test]
fn a_plugin_that_did_not_load_has_no_line() {
    // Chromium marks an `<embed>` or `<object>` of a plugin clickable and disabled, with no
    // name and nothing in it: no line on either source (the walk never showed one).
    rule("plugin_not_loaded", r#"<p>Before</p><object data='foo.swf' type='application/x-shockwave-flash' width='88' height='31'><param name='movie' value='foo.swf'></object><embed src='foo.swf'><p>After</p>"#, expect![[r#"
        - paragraph: Before
        - paragraph: After"#]]);
}

#[test]
fn a_title_names_an_empty_descendant_in_a_name_from_content() {
    // Inside a name from content, an `<svg>` with nothing to read gives its `title` attribute
    // (a share icon names its link "Mail", not the link's own tooltip); a `<span>` or `<i>`
    // with only a `title` gives nothing (it has a line of its own instead).
    rule("name_descendant_title", r#"<a href='/1'><span title='Tip'></span> Text</a><a href='/2'><span title='Tip2'>Shown</span></a><a href='/3' title='Share via mail'><span><svg title='Mail' width='10' height='10'><path d='M0 0h5v5z'/></svg></span></a><button><i title='Close'></i></button><a href='/5'><svg width='10' height='10'><text y='9'>Svg text</text></svg></a>"#, expect![[r#"
        - link "Text" [href=/1] [ref=e1]
          - generic "Tip"
        - link "Shown" [href=/2] [ref=e2]
          - generic "Tip2"
        - link "Mail" [href=/3] [ref=e3]
        - button [ref=e4]
          - generic "Close"
        - link "Svg text" [href=/5] [ref=e5]"#]]);
}

#[test]
fn generated_text_counts_only_where_it_renders() {
    // `::before`/`::after` text in a name: none when the pseudo-element is `display: none`;
    // set apart by spaces when it is a block (the walk read both as inline text).
    rule("pseudo_hidden_block", r#"<style>span.p:before{content:'world'} div.p:after{content:'bye'} span.q:before{content:'world';display:none} span.r:before{content:'world';display:block} div.r:after{content:'bye';display:block}</style><a href="/x"><span class=p>hello</span><div class=p>hello</div></a><a href="/y"><span class=q>hello</span><div>there</div></a><a href="/z"><span class=r>hello</span><div class=r>hello</div></a>"#, expect![[r#"
        - link "worldhello hellobye" [href=/x] [ref=e1]
        - link "hello there" [href=/y] [ref=e2]
        - link "world hello hello bye" [href=/z] [ref=e3]"#]]);
}

#[test]
fn generated_text_is_read_from_every_kind_of_rule() {
    // The walk reads a pseudo-element's style only where some rule for `::before`/`::after`
    // can match the element (domwalk.js mayGenerate): each way such a rule can stand is a case
    // the walk must still see. Grouping rules (@media, @supports, @layer), the user agent's
    // own quotes of a `<q>`, a nested rule (`&::after`: relative, so every element is read),
    // a selector that matches through a sibling, and a shadow tree's `:host::before` and
    // `::slotted()::after`.
    rule("pseudo_grouped", r#"<style>@media all{.m::before{content:'Media '}} @supports (display:block){@layer one{.s::after{content:' layered'}}}</style><button class=m>Play</button><button class=s>Stop</button>"#, expect![[r#"
        - button "Media Play" [ref=e1]
        - button "Stop layered" [ref=e2]"#]]);
    rule("pseudo_quotes", r#"<button><q>Quoted <q>inner</q></q> reply</button><button style='quotes:"«" "»"'><q>Oui</q></button>"#, expect![[r#"
        - button "“Quoted ‘inner’” reply" [ref=e1]
        - button "«Oui»" [ref=e2]"#]]);
    rule("pseudo_nested", r#"<style>.n{color:blue;&::after{content:' more'}}</style><button class=n>Read</button>"#, expect![[r#"
        - button "Read more" [ref=e1]"#]]);
    rule("pseudo_sibling", r#"<style>h2 ~ p a::before{content:'See '}</style><h2>Intro</h2><p><a href='/x'>the list</a></p>"#, expect![[r#"
        - heading "Intro" [level=2]
        - paragraph
          - link "See the list" [href=/x] [ref=e1]"#]]);
    rule("pseudo_shadow", r#"<button><x-star><template shadowrootmode='open'><style>:host::before{content:'Star '} ::slotted(b)::after{content:' now'}</style><slot></slot></template><b>Fav</b></x-star></button>"#, expect![[r#"
        - button "Star Fav now" [ref=e1]"#]]);
}

#[test]
fn a_file_input_is_its_button() {
    // A file input is the button it renders: "Choose File" ("Choose Files" when multiple),
    // its value the chosen file or "No file chosen" (Chromium's English strings, as for
    // submit and reset).
    rule("file_input", r#"<label>Photo <input type=file></label><input type=file multiple aria-label="Attachments">"#, expect![[r#"
        - button "Photo" value="No file chosen" [type=file] [ref=e1]
        - button "Attachments" value="No file chosen" [type=file] [ref=e2]"#]]);
}

#[test]
fn shadow_content_reads_as_it_renders_through_slots() {
    // A shadow host shows its shadow root; its own children show where a `<slot>` takes them,
    // a slot with nothing assigned shows its fallback content; nothing is read twice.
    rule("shadow_slots", r#"<button><div id=s1>foo</div></button><div id=s2>foo</div><div id=s3></div><div id=s4><span>unslotted</span></div><script>(() => { document.getElementById('s1').attachShadow({mode:'open'}).appendChild(document.createElement('slot')); for (const id of ['s2','s3']) { const sh = document.getElementById(id).attachShadow({mode:'open'}); const b = document.createElement('button'); sh.appendChild(b); const sl = document.createElement('slot'); b.appendChild(sl); const sp = document.createElement('span'); sp.textContent = 'pre'; sl.appendChild(sp); } const h = document.getElementById('s4').attachShadow({mode:'open'}); h.innerHTML = '<p>Shadow only</p>'; })();</script>"#, expect![[r#"
        - button "foo" [ref=e1]
        - button "foo" [ref=e2]
        - button "pre" [ref=e3]
        - paragraph: Shadow only"#]]);
}

#[test]
fn invisible_characters_inside_words_are_left_out() {
    // A soft hyphen and a zero-width space render as nothing: a name or a text reads without
    // them, on both sources (Chromium keeps them in its tree).
    rule("invisible_chars", r#"<button>hello&#173;&#8203;world</button><p>Donau&shy;dampf&shy;schiff&#8203;fahrt</p>"#, expect![[r#"
        - button "helloworld" [ref=e1]
        - paragraph: Donaudampfschifffahrt"#]]);
}

#[test]
fn invalid_fields_and_mixed_checkboxes_say_so() {
    // `[invalid]`: `aria-invalid` other than false, or a value that fails the field's type
    // (an empty required field is not invalid before the user has been at it, as Chromium
    // has it); an indeterminate checkbox is `[checked=mixed]` on both sources.
    rule("invalid_mixed", r#"<form><input aria-invalid="true" aria-label="Email"><input aria-invalid="spelling" aria-label="Text"><input type=email value="x" aria-label="Mail"><input required aria-label="Req"><input aria-invalid="false" aria-label="Fine"><input type=checkbox id=ind aria-label="Some"></form><script>document.getElementById('ind').indeterminate = true;</script>"#, expect![[r#"
        - form
          - textbox "Email" [invalid] [ref=e1]
          - textbox "Text" [invalid] [ref=e2]
          - textbox "Mail" value="x" [invalid] [type=email] [ref=e3]
          - textbox "Req" [required] [ref=e4]
          - textbox "Fine" [ref=e5]
          - checkbox "Some" [checked=mixed] [ref=e6]"#]]);
}

#[test]
fn a_field_that_names_itself_gives_its_aria_label_and_a_file_input_its_title() {
    // `aria-labelledby` through the field itself reads its aria-label (a field gives its value
    // only inside another element's label); a file input with a title is named by it
    // (html-aam; Chromium's tree keeps "Choose File": the AX line differs).
    rule2("labelledby_self_file_title", r#"<input id="t1" type="text" aria-label="bar" aria-labelledby="l1 t1"><div id="l1">foo</div><input type="file" title="Upload your CV">"#, expect![[r#"
        - textbox "foo bar" [ref=e1]
        - text: foo
        - button "Choose File" value="No file chosen" [type=file] [ref=e2]"#]], expect![[r#"
        - textbox "foo bar" [ref=e1]
        - text: foo
        - button "Upload your CV" value="No file chosen" [type=file] [ref=e2]"#]]);
}

#[test]
fn a_name_from_content_reads_what_the_element_owns() {
    // `aria-owns` adds the owned elements' text after the element's own, once each. Chromium
    // also moves an owned element under its owner, the walk's tree keeps it in place.
    rule2("owns_name", r#"<h1 id="o1" aria-owns="o1b">foo</h1><h1 id="o1b">bar</h1>"#, expect![[r#"
        - heading "foo bar" [level=1]
          - heading "bar" [level=1]"#]], expect![[r#"
        - heading "foo bar" [level=1]
        - heading "bar" [level=1]"#]]);
    // In a loop of ownership the walk lets the first owner keep it (`two` does not own `one`
    // back); Chromium 156 gives it to either, from one run to the next.
    walk_rule("owns_loop", r#"<h2 id="o2" aria-owns="o2b">one</h2><h2 id="o2b" aria-owns="o2">two</h2>"#, expect![[r#"
        - heading "one two" [level=2]
        - heading "two" [level=2]"#]]);
}

#[test]
fn generated_alternative_text_nested_spaces_and_slots_name_as_chromium_does() {
    // `content: "★" / "Favorite"` reads its alternative text; whitespace deep in nested spans
    // still parts two words; an aria-label on a `<slot>` names nothing (what it holds reads).
    rule("name_alt_ws_slot", r#"<style>.fav::before { content: "*" / "Favorite"; }</style><button class="fav"> item</button><button>save<span><span><span> </span></span></span>draft</button><span id="lbl"></span><button aria-labelledby="lbl">x</button><script>const h = document.getElementById('lbl'); const sh = h.attachShadow({mode:'open'}); const sl = document.createElement('slot'); sl.setAttribute('aria-label', 'ignored'); sl.textContent = 'fallback'; sh.appendChild(sl);</script>"#, expect![[r#"
        - button "Favorite item" [ref=e1]
        - button "save draft" [ref=e2]
        - button "fallback" [ref=e3]"#]]);
}

#[test]
fn a_descendant_named_by_aria_labelledby_gives_that_name_to_its_container() {
    // A heading's name from content takes a link's aria-labelledby text instead of the link's
    // own content (one level: what the reference reads is not followed further).
    rule("name_descendant_labelledby", r#"<h3>heading <a href="/x" aria-labelledby="im1">ignored link text <img id="im1" alt="image" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="> ignored</a> heading</h3>"#, expect![[r#"
        - heading "heading image heading" [level=3]
          - link "image" [href=/x] [ref=e1]"#]]);
}

#[test]
fn a_text_only_combobox_inside_a_label_gives_its_text() {
    // A `role=combobox` holding only text (no options, no field) gives that text as its value
    // inside a label, as Chromium reads it.
    rule("label_combobox_text", r#"<label><input type="checkbox"> Flash the screen <span role="combobox" tabindex="0" aria-label="number of times">3</span> times</label>"#, expect![[r#"
        - checkbox "Flash the screen 3 times" [ref=e1]
        - combobox "number of times" value="3" [ref=e2]"#]]);
}

#[test]
fn a_cell_that_labels_the_password_field_beside_it_is_said_once() {
    // A layout table of label cells and field cells (Fossil's login and password forms): the
    // label cell's text is the field's name, said once, on the field — a password field's too.
    rule("label_cell_password", r#"<form><table>
<tr><td id="ul">User ID:</td><td><input type="text" aria-labelledby="ul" name="u"></td></tr>
<tr><td id="pl">Password:</td><td><input aria-labelledby="pl" type="password" name="p"><input type="button" aria-label="Speak it" value="Speak it"></td></tr>
<tr><td id="nl">New Password:</td><td><input aria-labelledby="nl" type="password" name="n1"> Suggestion: Vgju</td></tr>
</table></form>"#, expect![[r#"
    - form
      - textbox "User ID:" [ref=e1]
      - textbox "Password:" [type=password] [ref=e2]
      - button "Speak it" [ref=e3]
      - textbox "New Password:" [type=password] [ref=e4]
      - text: Suggestion: Vgju"#]]);
}

// ── Client-rendered widgets (issue #64) ─────────────────────────────────────────────────

#[test]
fn a_combobox_wrapper_is_shown_with_the_field_it_holds() {
    // The ARIA 1.1 combobox (an autocomplete's wrapper carries the role, the <input> inside
    // has the focus): one control, named, valued and focused as its field, typed into there.
    rule2("combobox_wrapper_field", r#"<label for="payee">Payee</label>
<div role="combobox" aria-expanded="true" aria-haspopup="listbox" aria-owns="pl"><input id="payee" type="text" aria-autocomplete="list" aria-controls="pl" value="Gro" autofocus></div>
<ul role="listbox" id="pl"><li role="option">Groceries</li><li role="option">Grocery Outlet</li></ul>"#, expect![[r#"
    - text: Payee
    - combobox [expanded] [ref=e1]
      - textbox "Payee" value="Gro" [focused] [ref=e2]
      - listbox [ref=e3]
        - option "Groceries" [ref=e4]
        - option "Grocery Outlet" [ref=e5]"#]], expect![[r#"
            - text: Payee
            - combobox [expanded] [ref=e1]
              - textbox "Payee" value="Gro" [focused] [ref=e2]
            - listbox [ref=e3]
              - option "Groceries" [ref=e4]
              - option "Grocery Outlet" [ref=e5]"#]]);
}

#[test]
fn rows_of_a_roving_tabindex_list_each_get_a_ref() {
    // A file browser's rows: only the current row is in the tab order (tabindex 0), the others
    // take the focus when chosen (tabindex -1); each row opens on a click.
    rule("roving_rows", r#"<ul class="listing"><li tabindex="0" class="item"><span>notes.txt</span> <span>2 KB</span></li><li tabindex="-1" class="item"><span>data.csv</span> <span>5 KB</span></li><li tabindex="-1" class="item"><span>todo.md</span> <span>1 KB</span></li></ul>"#, expect![[r#"
        - listitem "notes.txt 2 KB" [ref=e1]
        - listitem "data.csv 5 KB" [ref=e2]
        - listitem "todo.md 1 KB" [ref=e3]"#]]);
}

#[test]
fn rows_like_a_focusable_row_each_get_a_ref() {
    // Only the first row carries a tabindex (the others get it when chosen): rows of the same
    // kind beside it are rows a person clicks too.
    rule("roving_rows_first_only", r#"<ul class="listing"><li tabindex="0" class="item"><span>notes.txt</span> <span>2 KB</span></li><li class="item"><span>data.csv</span> <span>5 KB</span></li><li class="item"><span>todo.md</span> <span>1 KB</span></li></ul>"#, expect![[r#"
        - listitem "notes.txt 2 KB" [ref=e1]
        - listitem "data.csv 5 KB" [ref=e2]
        - listitem "todo.md 1 KB" [ref=e3]"#]]);
}

#[test]
fn cells_of_a_div_grid_with_pointer_cells_each_get_a_ref() {
    // A transactions table made of divs whose cells become inputs when clicked.
    rule("div_grid_cells", r#"<style>.c{display:inline-block;width:120px;cursor:pointer}.r{display:block}</style>
<div class="t"><div class="r"><div class="c">2026-12-01</div><div class="c">Groceries</div><div class="c">185.00</div></div><div class="r"><div class="c">2026-12-02</div><div class="c">Rent</div><div class="c">185.00</div></div></div>"#, expect![[r#"
    - clickable "2026-12-01" [ref=e1]
    - clickable "Groceries" [ref=e2]
    - clickable "185.00" [ref=e3]
    - clickable "2026-12-02" [ref=e4]
    - clickable "Rent" [ref=e5]
    - clickable "185.00" [ref=e6]"#]]);
}

#[test]
fn an_unnamed_field_inside_a_combobox_wrapper_is_still_the_field() {
    // downshift's autocomplete in a grid cell: the wrapper has the role, the unlabelled input
    // inside has the focus and what was typed.
    rule2("combobox_wrapper_unnamed", r#"<div role="row"><div role="cell" aria-label="Payee"><div role="combobox" aria-haspopup="listbox" aria-owns="dl" aria-expanded="true"><input type="text" aria-autocomplete="list" aria-labelledby="nope" value="Gro" autofocus></div></div></div>
<div role="listbox" id="dl"><div role="option">Groceries</div></div>"#, expect![[r#"
    - row
      - cell "Payee"
        - combobox [expanded] [ref=e1]
          - textbox value="Gro" [focused] [ref=e2]
          - listbox [ref=e3]
            - option "Groceries" [ref=e4]"#]], expect![[r#"
                - row
                  - cell "Payee"
                    - combobox [expanded] [ref=e1]
                      - textbox value="Gro" [focused] [ref=e2]
                - listbox [ref=e3]
                  - option "Groceries" [ref=e4]"#]]);
}

#[test]
fn a_roving_member_inside_each_row_gets_a_ref_in_every_row() {
    // JupyterLab's file list: the current file's name takes the focus (tabindex 0, a button);
    // the other files' names take it when chosen (tabindex -1); the list handles the clicks.
    rule("roving_inner_members", r#"<ul class="listing"><li title="Name: data.csv"><span class="name"><span class="icon"><svg width="16" height="16" aria-hidden="true"></svg></span><span class="text" tabindex="0" role="button"><span>data.csv</span></span></span><span class="mod">38s ago</span></li><li title="Name: notes.txt"><span class="name"><span class="icon"><svg width="16" height="16" aria-hidden="true"></svg></span><span class="text" tabindex="-1"><span>notes.txt</span></span></span><span class="mod">38s ago</span></li><li title="Name: todo.md"><span class="name"><span class="icon"><svg width="16" height="16" aria-hidden="true"></svg></span><span class="text" tabindex="-1"><span>todo.md</span></span></span><span class="mod">38s ago</span></li></ul>"#, expect![[r#"
        - listitem "Name: data.csv"
          - button "data.csv" [ref=e1]
          - text: 38s ago
        - listitem "Name: notes.txt"
          - clickable "notes.txt" [ref=e2]
          - text: 38s ago
        - listitem "Name: todo.md"
          - clickable "todo.md" [ref=e3]
          - text: 38s ago"#]]);
}

#[test]
fn a_focus_target_that_is_no_row_gets_no_ref() {
    // tabindex=-1 on a page's main region and headings (skip links, a router's focus) is no
    // roving tabindex: nothing like it stands beside a member.
    rule("focus_targets_not_rows", r#"<main tabindex="-1"><h1 tabindex="-1">Reports</h1><p>Spending by month</p><h2 tabindex="-1">March</h2><p>Rent 900</p></main>"#, expect![[r#"
        - main
          - heading "Reports" [level=1]
          - paragraph: Spending by month
          - heading "March" [level=2]
          - paragraph: Rent 900"#]]);
}

#[test]
fn siblings_of_a_clicked_row_are_clicked_rows_too() {
    // A month strip: the current month shows a pointer; the others take clicks the same way
    // (their listeners only the accessibility tree sees).
    rule("clicked_row_siblings", r#"<style>.m{display:inline-block;padding:2px}.cur{cursor:pointer}</style><div class="strip"><div class="m">Oct</div><div class="m">Nov</div><div class="m cur">Dec</div><div class="m">Jan</div></div>"#, expect![[r#"
        - clickable "Oct" [ref=e1]
        - clickable "Nov" [ref=e2]
        - clickable "Dec" [ref=e3]
        - clickable "Jan" [ref=e4]"#]]);
}
