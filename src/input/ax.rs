//! CDP `Accessibility.getFullAXTree` result (`{nodes: AXNode[]}`), decoded leniently.

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AxTree {
    pub nodes: Vec<AxNode>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AxNode {
    pub node_id: String,
    pub ignored: bool,
    pub role: Option<AxValue>,
    pub name: Option<AxValue>,
    pub value: Option<AxValue>,
    /// Only the properties the core reads are kept (see `KEPT_PROPERTIES`).
    #[serde(deserialize_with = "known_properties")]
    pub properties: Vec<AxProperty>,
    pub parent_id: Option<String>,
    pub child_ids: Vec<String>,
    #[serde(rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<i64>,
    pub frame_id: Option<String>,
}

/// `AXValue`: the value is any JSON (string, number, boolean, idref list…). Its `type`
/// and `sources` are not read (and not kept: they dominate memory on large pages).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AxValue {
    pub value: Option<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AxProperty {
    pub name: String,
    pub value: AxValue,
}

/// AX properties the core reads; the rest are dropped while decoding.
pub const KEPT_PROPERTIES: [&str; 12] =
    ["checked", "pressed", "disabled", "expanded", "selected", "focused", "focusable", "required", "readonly", "level", "hasPopup", "editable"];

/// Decodes the property list element by element, keeping only `KEPT_PROPERTIES`.
fn known_properties<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<AxProperty>, D::Error> {
    struct Keep;
    impl<'de> serde::de::Visitor<'de> for Keep {
        type Value = Vec<AxProperty>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of AX properties")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(p) = seq.next_element::<AxProperty>()? {
                if KEPT_PROPERTIES.contains(&p.name.as_str()) {
                    out.push(p);
                }
            }
            Ok(out)
        }
    }
    d.deserialize_any(Keep)
}

impl AxValue {
    /// The value as text: strings as they are, numbers and booleans printed, else `None`.
    pub fn text(&self) -> Option<String> {
        match self.value.as_ref()? {
            Value::String(s) => Some(s.clone()),
            // Integers print as integers; other numbers through core's float formatting.
            Value::Number(n) => Some(n.as_i64().map(|i| i.to_string()).unwrap_or_else(|| format!("{}", n.as_f64().unwrap_or(0.0)))),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value.as_ref()? {
            Value::Bool(b) => Some(*b),
            Value::String(s) => match s.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }
}

impl AxNode {
    pub fn property(&self, name: &str) -> Option<&AxValue> {
        self.properties.iter().find(|p| p.name == name).map(|p| &p.value)
    }

    pub fn role_str(&self) -> &str {
        self.role
            .as_ref()
            .and_then(|r| r.value.as_ref())
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}
