//! Roles: the one table of roles — the ARIA vocabulary plus the few of our own the filter
//! reasons about — with Chromium's names for each, what a line shows for each, and the small
//! classification the filter and the budget need (actionable, transparent wrapper, text,
//! landmark…).
//!
//! Owns: role vocabulary; every comparison of a role with a name happens here (`Role` is an
//! enum everywhere else). Must never: look at names, values or layout; show a
//! Chromium-internal name (`shows()` is always an ARIA role, or `text` / `iframe` /
//! `clickable`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The one table: `aria|ours Variant "name" [=> ShownAs] [chromium names…];`. `name` is our
/// vocabulary (the ARIA name for ARIA roles); `ShownAs` is what a line shows when it is not
/// the role itself; Chromium's names are those CDP sends that are not the role's own name
/// in any case (`menuItemCheckBox` reads as `menuitemcheckbox` without a row).
macro_rules! roles {
    ($($kind:ident $variant:ident $name:literal $(=> $shows:ident)? $([$($chromium:literal),*])?;)*) => {
        /// A node's role (internal vocabulary); a line shows `shows()`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Role {
            $($variant,)*
        }

        impl Role {
            /// Every role, in the table's order.
            pub const ALL: &'static [Role] = &[$(Role::$variant,)*];

            /// The role's name in our vocabulary (ARIA's for ARIA roles).
            pub fn name(self) -> &'static str {
                match self {
                    $(Role::$variant => $name,)*
                }
            }

            /// Whether the role is one of ARIA's (1.2, and `mark`, `suggestion`).
            pub fn is_aria(self) -> bool {
                match self {
                    $(Role::$variant => roles!(@aria $kind),)*
                }
            }

            /// What a line shows for the role: an ARIA role, or `text` / `iframe` / `clickable`.
            pub fn shows(self) -> Role {
                match self {
                    $(Role::$variant => roles!(@shows $variant $($shows)?),)*
                }
            }

            /// The role of `name` in our vocabulary (exact, lowercase).
            pub fn from_name(name: &str) -> Option<Role> {
                match name {
                    $($name => Some(Role::$variant),)*
                    _ => None,
                }
            }

            /// A Chromium-only name's role (`StaticText`, `LayoutTable`, …).
            fn from_chromium_name(name: &str) -> Option<Role> {
                match name {
                    $($($($chromium => Some(Role::$variant),)*)?)*
                    _ => None,
                }
            }
        }
    };
    (@aria aria) => { true };
    (@aria ours) => { false };
    (@shows $v:ident) => { Role::$v };
    (@shows $v:ident $s:ident) => { Role::$s };
}

roles! {
    // ARIA 1.2 (and `mark`, `suggestion`). Tables Chromium decided are
    // layout and other boxes without a meaning of their own read as `generic`, folded away
    // like any generic wrapper. `<summary>` (`DisclosureTriangle`) is to a user a button
    // that opens its `<details>`.
    aria Alert "alert";
    aria AlertDialog "alertdialog";
    aria Application "application";
    aria Article "article";
    aria Banner "banner";
    aria Blockquote "blockquote";
    aria Button "button" ["DisclosureTriangle"];
    aria Caption "caption" ["Figcaption"];
    aria Cell "cell";
    aria Checkbox "checkbox";
    aria Code "code";
    aria ColumnHeader "columnheader";
    aria ComboBox "combobox" ["PopUpButton"];
    aria Complementary "complementary";
    aria ContentInfo "contentinfo";
    aria Definition "definition" ["DescriptionListDetail"];
    aria Deletion "deletion";
    aria Dialog "dialog";
    aria Directory "directory";
    aria Document "document";
    aria Emphasis "emphasis";
    aria Feed "feed";
    aria Figure "figure";
    aria Form "form";
    aria Generic "generic" ["LayoutTable", "LayoutTableRow", "LayoutTableCell", "Section", "SectionWithoutName", "Pre", "Abbr", "Ruby", "RubyAnnotation", "Time", "Mark", "Legend", "Audio", "Video", "EmbeddedObject", "PluginObject", "sectionheader", "sectionfooter", ""];
    aria Grid "grid";
    aria GridCell "gridcell";
    aria Group "group";
    aria Heading "heading";
    aria Img "img" ["image"];
    aria Insertion "insertion";
    aria Link "link";
    aria List "list" ["DescriptionList"];
    aria ListBox "listbox";
    aria ListItem "listitem";
    aria Log "log";
    aria Main "main";
    aria Mark "mark";
    aria Marquee "marquee";
    aria Math "math" ["MathMLMath"];
    aria Menu "menu";
    aria MenuBar "menubar";
    aria MenuItem "menuitem";
    aria MenuItemCheckbox "menuitemcheckbox";
    aria MenuItemRadio "menuitemradio";
    aria Meter "meter";
    aria Navigation "navigation";
    aria None "none";
    aria Note "note";
    aria Option "option" ["MenuListOption", "ListBoxOption"];
    aria Paragraph "paragraph";
    aria Presentation "presentation";
    aria ProgressBar "progressbar";
    aria Radio "radio";
    aria RadioGroup "radiogroup";
    aria Region "region";
    aria Row "row";
    aria RowGroup "rowgroup";
    aria RowHeader "rowheader";
    aria ScrollBar "scrollbar";
    aria Search "search";
    aria SearchBox "searchbox";
    aria Separator "separator";
    aria Slider "slider";
    aria SpinButton "spinbutton";
    aria Status "status";
    aria Strong "strong";
    aria Suggestion "suggestion";
    aria Subscript "subscript";
    aria Superscript "superscript";
    aria Switch "switch";
    aria Tab "tab";
    aria Table "table";
    aria TabList "tablist";
    aria TabPanel "tabpanel";
    aria Term "term" ["DescriptionListTerm"];
    aria TextBox "textbox";
    aria Time "time";
    aria Timer "timer";
    aria Toolbar "toolbar";
    aria Tooltip "tooltip";
    aria Tree "tree";
    aria TreeGrid "treegrid";
    aria TreeItem "treeitem";

    // Ours: text runs, frames, clickable wrappers, and Chromium parts the filter reasons about.
    ours Text "text" ["StaticText"];
    ours WebArea "webarea" => Generic ["RootWebArea", "WebArea"];
    ours Iframe "iframe" ["Iframe", "IframePresentational"];
    ours Clickable "clickable";
    ours Label "label" => Generic ["LabelText"];
    ours ListMarker "listmarker" => Generic ["ListMarker"];
    ours InlineTextBox "inlinetextbox" => Generic ["InlineTextBox"];
    ours LineBreak "linebreak" => Generic ["LineBreak"];
    ours MenuListPopup "menulistpopup" => Generic ["MenuListPopup"];
    ours SvgRoot "svgroot" => Img ["SvgRoot"];
    ours Canvas "canvas" => Img ["Canvas"];
    ours Date "date" => TextBox ["Date"];
    ours DateTime "datetime" => TextBox ["DateTime"];
    ours InputTime "inputtime" => TextBox ["InputTime"];
    ours ColorWell "colorwell" => TextBox ["ColorWell"];
}

/// An element without a role of its own.
impl Default for Role {
    fn default() -> Role {
        Role::Generic
    }
}

impl Role {
    /// A role from Chromium's AX tree: its own names, MathML parts as `generic`, else the
    /// lowercase name as what a line would show of it (unknown names are `generic`).
    pub fn from_chromium(name: &str) -> Role {
        if let Some(r) = Role::from_chromium_name(name) {
            return r;
        }
        if name.starts_with("MathML") {
            return Role::Generic;
        }
        let lower = name.to_ascii_lowercase();
        Role::from_name(&lower).map_or(Role::Generic, Role::shows)
    }

    /// The first ARIA role of a `role` attribute's token list (`role="btn button"` is a
    /// button: an unknown token is skipped), in any case.
    pub fn from_aria_attribute(value: &str) -> Option<Role> {
        Role::aria_tokens(value).next()
    }

    /// The ARIA roles of a `role` attribute's token list, in order (unknown tokens skipped):
    /// the fallbacks an author gave after the first.
    pub fn aria_tokens(value: &str) -> impl Iterator<Item = Role> + '_ {
        value.split_whitespace().filter_map(|t| Role::from_name(&t.to_ascii_lowercase()).filter(|r| r.is_aria()))
    }

    /// A landmark that is one only with a name (`region`, `form`): without one, Chromium takes
    /// the next role of the attribute's list, else the element's own.
    pub fn needs_name(self) -> bool {
        matches!(self, Role::Region | Role::Form)
    }

    /// Roles ARIA prohibits naming, and Chromium names from no `title` (an author's
    /// aria-label still names them): inline semantics, paragraphs, a table's caption (a
    /// `<figcaption>`'s title does name it).
    pub fn unnamed_by_title(self) -> bool {
        matches!(
            self,
            Role::Code | Role::Deletion | Role::Emphasis | Role::Insertion | Role::Paragraph | Role::Strong | Role::Subscript
                | Role::Superscript | Role::Time | Role::Mark | Role::Definition | Role::Caption
        )
    }

    /// The name a line shows.
    pub fn display(self) -> &'static str {
        self.shows().name()
    }

    /// `presentation` / `none`: the element's own semantics are removed.
    pub fn is_presentational(self) -> bool {
        matches!(self, Role::None | Role::Presentation)
    }

    /// Native widgets whose internal parts (shadow spin buttons, pickers) are one control.
    pub fn is_native_widget(self) -> bool {
        matches!(self, Role::Date | Role::DateTime | Role::InputTime | Role::ColorWell | Role::Slider | Role::ProgressBar | Role::Meter)
    }

    /// Roles a user acts on: they get refs (when visible and not covered).
    pub fn is_actionable(self) -> bool {
        matches!(
            self,
            Role::Button | Role::Link | Role::TextBox | Role::SearchBox | Role::Checkbox | Role::Radio | Role::Switch
                | Role::ComboBox | Role::ListBox | Role::Option | Role::MenuItem | Role::MenuItemCheckbox
                | Role::MenuItemRadio | Role::Tab | Role::Slider | Role::SpinButton | Role::TreeItem
                | Role::ScrollBar | Role::ColorWell | Role::Date | Role::DateTime | Role::InputTime
        )
    }

    /// Controls whose value is text the user types or picks (a line shows it as the value).
    pub fn takes_text(self) -> bool {
        matches!(self, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton | Role::Slider)
    }

    /// Controls with a checked state.
    pub fn is_checkable(self) -> bool {
        matches!(self, Role::Checkbox | Role::Radio | Role::Switch | Role::MenuItemCheckbox | Role::MenuItemRadio)
    }

    /// Roles a selection applies to (`aria-selected`, `[selected]`).
    pub fn is_selectable(self) -> bool {
        matches!(self, Role::Option | Role::Tab | Role::TreeItem | Role::Row | Role::GridCell | Role::Cell | Role::ListItem)
    }

    /// Wrappers whose line adds nothing when they carry no name: dropped, children lifted.
    pub fn is_transparent(self) -> bool {
        matches!(
            self,
            Role::Generic | Role::None | Role::Presentation | Role::Group | Role::List
                | Role::Document | Role::WebArea | Role::Label | Role::Emphasis | Role::Strong | Role::Subscript | Role::Superscript | Role::Code
                | Role::Figure | Role::Time | Role::Mark | Role::Insertion | Role::Deletion | Role::Suggestion | Role::Region | Role::Term
                | Role::Caption | Role::Directory | Role::Feed
                | Role::RowGroup | Role::Application
                | Role::LineBreak | Role::ListMarker
        )
    }

    /// Roles whose line says what its content is — a quotation, a live message (status, log,
    /// timer, marquee), a note, a tooltip, a definition, a formula: shown, named or not, when
    /// they hold anything (folded, a status message reads as any other text).
    pub fn labels_content(self) -> bool {
        matches!(
            self,
            Role::Blockquote | Role::Status | Role::Log | Role::Timer | Role::Marquee | Role::Note | Role::Tooltip | Role::Definition | Role::Math
        )
    }

    /// Roles whose subtree never reaches the model.
    pub fn is_excluded_subtree(self) -> bool {
        matches!(self, Role::InlineTextBox | Role::LineBreak | Role::ListMarker)
    }

    /// Roles rendered as page text (`- text: …`).
    pub fn is_text(self) -> bool {
        self == Role::Text
    }

    /// Roles whose name is computed from their content: their descendant text is the name.
    pub fn owns_descendant_text(self) -> bool {
        self.is_actionable()
            || matches!(
                self,
                Role::Heading | Role::Img | Role::Cell | Role::GridCell | Role::ColumnHeader | Role::RowHeader
                    | Role::Label | Role::Caption | Role::Tooltip | Role::Term | Role::Code
            )
    }

    /// Containers that are shown when they hold several lines and folded into their only child
    /// otherwise: a list item with its link and byline, a story card.
    pub fn is_item(self) -> bool {
        matches!(self, Role::ListItem | Role::Article)
    }

    /// Landmarks and containers worth a line when named (they give the page its regions).
    pub fn is_landmark(self) -> bool {
        matches!(
            self,
            Role::Navigation | Role::Main | Role::Banner | Role::ContentInfo | Role::Complementary | Role::Form
                | Role::Search | Role::Region | Role::Dialog | Role::AlertDialog | Role::Article
        )
    }

    /// Images: dropped when they have no meaningful name.
    pub fn is_image(self) -> bool {
        matches!(self, Role::Img | Role::SvgRoot | Role::Canvas)
    }

    /// English plural of the shown role for note lines ("294 more links").
    pub fn plural(self) -> String {
        match self.shows() {
            Role::Text => "text runs".into(),
            Role::Checkbox => "checkboxes".into(),
            Role::ListBox => "listboxes".into(),
            Role::ComboBox => "comboboxes".into(),
            Role::TextBox => "textboxes".into(),
            Role::SearchBox => "searchboxes".into(),
            r => format!("{}s", r.name()),
        }
    }
}

/// A role crosses (saved state, a ref's target) as its name.
impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Role::from_name(&name).ok_or_else(|| serde::de::Error::custom("expected a role name"))
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Chromium's boxes of a table it decided is for layout (they read as `generic`; Chromium
/// names them from their content, a box has no name).
pub fn is_layout_table_part(chromium_role: &str) -> bool {
    matches!(chromium_role, "LayoutTable" | "LayoutTableRow" | "LayoutTableCell")
}

/// The level of a heading element (`h1`–`h6`), from its tag.
pub fn heading_level(tag: &str) -> Option<usize> {
    match tag.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(usize::from(d - b'0')),
        _ => None,
    }
}

/// The form-field elements whose content is user input, not page text.
pub fn is_field_tag(tag: &str) -> bool {
    matches!(tag, "input" | "textarea" | "select")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(chromium: &str, expect: Role) {
        assert_eq!(Role::from_chromium(chromium), expect, "{chromium}");
    }

    #[test]
    fn chromium_names_read_as_our_roles() {
        check("StaticText", Role::Text);
        check("RootWebArea", Role::WebArea);
        check("document", Role::Document);
        check("button", Role::Button);
        check("menuItemCheckBox", Role::MenuItemCheckbox);
        check("", Role::Generic);
        check("LayoutTableCell", Role::Generic);
        check("sectionheader", Role::Generic);
        check("MathMLFraction", Role::Generic);
        check("SomeFutureRole", Role::Generic);
        check("image", Role::Img);
        check("svgroot", Role::Img);
    }

    #[test]
    fn a_line_shows_only_aria_roles_or_ours_three() {
        for &r in Role::ALL {
            let shown = r.shows();
            assert!(shown.is_aria() || matches!(shown, Role::Text | Role::Iframe | Role::Clickable), "{r} shows as {shown}");
            assert_eq!(shown.shows(), shown, "{r}: what a line shows shows itself");
        }
    }

    #[test]
    fn every_name_reads_back_as_its_role() {
        for &r in Role::ALL {
            assert_eq!(Role::from_name(r.name()), Some(r));
        }
        assert_eq!(Role::ALL.iter().filter(|r| r.is_aria()).count(), 84, "ARIA 1.2's roles, mark and suggestion");
    }

    #[test]
    fn the_first_known_aria_token_of_the_attribute_wins() {
        assert_eq!(Role::from_aria_attribute("btn Button link"), Some(Role::Button));
        assert_eq!(Role::from_aria_attribute("text iframe"), None, "our own names are not ARIA");
        assert_eq!(Role::from_aria_attribute(""), None);
    }

    #[test]
    fn plural_forms() {
        assert_eq!(Role::Link.plural(), "links");
        assert_eq!(Role::Checkbox.plural(), "checkboxes");
        assert_eq!(Role::Date.plural(), "textboxes");
    }

    #[test]
    fn heading_levels_come_from_h1_to_h6_only() {
        assert_eq!(heading_level("h1"), Some(1));
        assert_eq!(heading_level("h6"), Some(6));
        for t in ["h0", "h7", "h", "hr", "header", "h10"] {
            assert_eq!(heading_level(t), None, "{t}");
        }
    }
}
