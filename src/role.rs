//! Roles: normalization of Chromium AX role strings and the small classification the
//! filter and the budget need (actionable, transparent wrapper, text, landmark…).
//!
//! Owns: role vocabulary. Must never: look at names, values or layout.

/// Lowercase, model-facing role name for a Chromium AX role (`StaticText` → `text`).
pub fn normalize(chromium_role: &str) -> String {
    match chromium_role {
        "StaticText" => "text".into(),
        "RootWebArea" | "WebArea" => "document".into(),
        "Iframe" | "IframePresentational" => "iframe".into(),
        "LabelText" => "label".into(),
        "ListMarker" => "listmarker".into(),
        "InlineTextBox" => "inlinetextbox".into(),
        "LineBreak" => "linebreak".into(),
        "Canvas" => "canvas".into(),
        // <summary>: to a user, a button that opens its <details>.
        "DisclosureTriangle" => "button".into(),
        "Section" | "SectionWithoutName" => "section".into(),
        "Pre" => "generic".into(),
        "Abbr" | "Ruby" | "Time" | "Mark" => "generic".into(),
        "DescriptionListDetail" | "DescriptionListTerm" => "generic".into(),
        "" => "generic".into(),
        other => other.to_ascii_lowercase(),
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
        "generic" | "none" | "presentation" | "group" | "list" | "listitem" | "section"
            | "div" | "span" | "document" | "label" | "paragraph_wrapper" | "ignored"
            | "unknown" | "emphasis" | "strong" | "subscript" | "superscript" | "code"
            | "blockquote" | "figure" | "time" | "mark" | "insertion" | "deletion"
            | "contentinfo" | "banner" | "article" | "region" | "form" | "search" | "term"
            | "definition" | "caption" | "figcaption" | "legend" | "directory" | "feed"
            | "rowgroup" | "note" | "application" | "tooltip" | "status" | "log"
            | "marquee" | "timer" | "math" | "linebreak" | "listmarker" | "details"
            | "abbr" | "ruby" | "subscript_wrapper"
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
            "heading" | "img" | "image" | "cell" | "gridcell" | "columnheader" | "rowheader"
                | "label" | "legend" | "caption" | "figcaption" | "tooltip" | "term"
                | "treeitem" | "menuitem" | "option" | "tab" | "code"
        )
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
    matches!(role, "img" | "image" | "graphics-symbol" | "svgroot" | "canvas" | "figure_image")
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
    }

    #[test]
    fn plural_forms() {
        assert_eq!(plural("link"), "links");
        assert_eq!(plural("checkbox"), "checkboxes");
    }
}
