//! Roles: normalization of Chromium AX role strings and the small classification the
//! filter and the budget need (actionable, transparent wrapper, text, landmark…).
//!
//! Owns: role vocabulary. Must never: look at names, values or layout.

/// The one table of Chromium role names → our vocabulary: ARIA roles, plus a few internal
/// names the filter reasons about (`text`, `document`, `iframe`, `label`, `svgroot`,
/// `canvas`, the native date/time/colour widgets, and parts never shown). What the model
/// sees is `display()` of it, always an ARIA role (or `text` / `iframe`).
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

pub fn normalize(chromium_role: &str) -> String {
    let r = match chromium_role {
        "StaticText" => "text",
        "RootWebArea" | "WebArea" => "document",
        "Iframe" | "IframePresentational" => "iframe",
        "LabelText" => "label",
        "ListMarker" => "listmarker",
        "InlineTextBox" => "inlinetextbox",
        "LineBreak" => "linebreak",
        "Canvas" => "canvas",
        "SvgRoot" => "svgroot",
        "MenuListPopup" => "menulistpopup",
        "MenuListOption" | "ListBoxOption" => "option",
        "PopUpButton" => "combobox",
        "Date" => "date",
        "DateTime" => "datetime",
        "InputTime" => "inputtime",
        "ColorWell" => "colorwell",
        // <summary>: to a user, a button that opens its <details>.
        "DisclosureTriangle" => "button",
        "DescriptionList" => "list",
        "DescriptionListTerm" => "term",
        "DescriptionListDetail" => "definition",
        "Figcaption" => "caption",
        "MathMLMath" => "math",
        "image" => "img",
        // Tables Chromium decided are layout, and other boxes without a meaning of their own:
        // folded away like any generic wrapper.
        "LayoutTable" | "LayoutTableRow" | "LayoutTableCell" | "Section" | "SectionWithoutName" | "Pre"
        | "Abbr" | "Ruby" | "RubyAnnotation" | "Time" | "Mark" | "Legend" | "Audio" | "Video"
        | "EmbeddedObject" | "PluginObject" | "sectionheader" | "sectionfooter" | "" => "generic",
        other if other.starts_with("MathML") => "generic",
        other => return display(&other.to_ascii_lowercase()).to_string(),
    };
    r.to_string()
}

/// ARIA 1.2 roles (and `mark`), the only role names a state may show besides `text`,
/// `iframe` and `clickable`.
const ARIA_ROLES: [&str; 83] = [
    "alert", "alertdialog", "application", "article", "banner", "blockquote", "button", "caption", "cell",
    "checkbox", "code", "columnheader", "combobox", "complementary", "contentinfo", "definition", "deletion",
    "dialog", "directory", "document", "emphasis", "feed", "figure", "form", "generic", "grid", "gridcell",
    "group", "heading", "img", "insertion", "link", "list", "listbox", "listitem", "log", "main", "mark",
    "marquee", "math", "menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio", "meter",
    "navigation", "none", "note", "option", "paragraph", "presentation", "progressbar", "radio",
    "radiogroup", "region", "row", "rowgroup", "rowheader", "scrollbar", "search", "searchbox", "separator",
    "slider", "spinbutton", "status", "strong", "subscript", "superscript", "switch", "tab", "table",
    "tablist", "tabpanel", "term", "textbox", "time", "timer", "toolbar", "tooltip", "tree", "treegrid",
    "treeitem",
];

/// Whether `role` (lowercase) is a role of the ARIA vocabulary.
pub fn is_aria(role: &str) -> bool {
    ARIA_ROLES.contains(&role)
}

/// The role name a line shows for an internal role: always ARIA (or our `text`, `iframe`,
/// `clickable`); anything unknown is `generic`, never a Chromium-internal name.
pub fn display(role: &str) -> &str {
    match role {
        "text" | "iframe" | "clickable" => role,
        "svgroot" | "canvas" | "image" => "img",
        "date" | "datetime" | "inputtime" | "colorwell" => "textbox",
        "document" | "label" | "listmarker" | "inlinetextbox" | "linebreak" | "menulistpopup" => "generic",
        r if is_aria(r) => r,
        _ => "generic",
    }
}

/// Native widgets whose internal parts (shadow spin buttons, pickers) are one control.
pub fn is_native_widget(role: &str) -> bool {
    matches!(role, "date" | "datetime" | "inputtime" | "colorwell" | "slider" | "progressbar" | "meter")
}

/// Roles a user acts on: they get refs (when visible and not covered).
pub fn is_actionable(role: &str) -> bool {
    matches!(
        role,
        "button" | "link" | "textbox" | "searchbox" | "checkbox" | "radio" | "switch"
            | "combobox" | "listbox" | "option" | "menuitem" | "menuitemcheckbox"
            | "menuitemradio" | "tab" | "slider" | "spinbutton" | "treeitem"
            | "popupbutton" | "togglebutton" | "textfield" | "scrollbar" | "disclosuretriangle"
            | "colorwell" | "date" | "datetime" | "inputtime"
    )
}

/// Wrappers whose line adds nothing when they carry no name: dropped, children lifted.
pub fn is_transparent(role: &str) -> bool {
    matches!(
        role,
        "generic" | "none" | "presentation" | "group" | "list"
            | "document" | "label" | "emphasis" | "strong" | "subscript" | "superscript" | "code"
            | "blockquote" | "figure" | "time" | "mark" | "insertion" | "deletion" | "region" | "term"
            | "definition" | "caption" | "figcaption" | "legend" | "directory" | "feed"
            | "rowgroup" | "note" | "application" | "tooltip" | "status" | "log"
            | "marquee" | "timer" | "math" | "linebreak" | "listmarker" | "details"
    )
}

/// Roles whose subtree never reaches the model.
pub fn is_excluded_subtree(role: &str) -> bool {
    matches!(role, "inlinetextbox" | "script" | "style" | "template" | "noscript" | "linebreak" | "listmarker")
}

/// Roles rendered as page text (`- text: …`, `- paragraph: …`).
pub fn is_text(role: &str) -> bool {
    matches!(role, "text")
}

/// Roles whose name is computed from their content: their descendant text is the name.
pub fn owns_descendant_text(role: &str) -> bool {
    is_actionable(role)
        || matches!(
            role,
            "heading" | "img" | "cell" | "gridcell" | "columnheader" | "rowheader"
                | "label" | "legend" | "caption" | "figcaption" | "tooltip" | "term"
                | "treeitem" | "menuitem" | "option" | "tab" | "code"
        )
}

/// Containers that are shown when they hold several lines and folded into their only child
/// otherwise: a list item with its link and byline, a story card.
pub fn is_item(role: &str) -> bool {
    matches!(role, "listitem" | "article")
}

/// Landmarks and containers worth a line when named (they give the page its regions).
pub fn is_landmark(role: &str) -> bool {
    matches!(
        role,
        "navigation" | "main" | "banner" | "contentinfo" | "complementary" | "form"
            | "search" | "region" | "dialog" | "alertdialog" | "article"
    )
}

/// Images: dropped when they have no meaningful name.
pub fn is_image(role: &str) -> bool {
    matches!(role, "img" | "svgroot" | "canvas")
}

/// English plural of a role for note lines ("294 more links").
pub fn plural(role: &str) -> String {
    match role {
        "text" => "text runs".into(),
        "checkbox" => "checkboxes".into(),
        "listbox" => "listboxes".into(),
        "combobox" => "comboboxes".into(),
        "textbox" => "textboxes".into(),
        "searchbox" => "searchboxes".into(),
        r if r.ends_with('s') => format!("{r}es"),
        r => format!("{r}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_chromium_roles() {
        assert_eq!(normalize("StaticText"), "text");
        assert_eq!(normalize("RootWebArea"), "document");
        assert_eq!(normalize("button"), "button");
        assert_eq!(normalize(""), "generic");
        assert_eq!(normalize("LayoutTableCell"), "generic");
        assert_eq!(normalize("sectionheader"), "generic");
        assert_eq!(normalize("SomeFutureRole"), "generic");
        assert_eq!(normalize("image"), "img");
    }

    #[test]
    fn displayed_roles_are_always_aria() {
        for r in ["date", "inputtime", "colorwell", "svgroot", "label", "listmarker", "layouttable", "xyz"] {
            assert!(is_aria(display(r)), "{r} shows as {}", display(r));
        }
    }

    #[test]
    fn plural_forms() {
        assert_eq!(plural("link"), "links");
        assert_eq!(plural("checkbox"), "checkboxes");
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
