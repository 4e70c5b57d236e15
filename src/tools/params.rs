//! A call's parameters checked against its tool's JSON Schema in `extension/catalogue.json`,
//! once, in the router: no handler checks a parameter's type again. The schemas use a small
//! part of JSON Schema — `type` (integer, number, string, boolean, object, array), `enum`,
//! `minimum` / `maximum`,
//! `items`, `properties`, `required`, `additionalProperties: false` — and the catalogue's
//! integers are all counts, ids, offsets or milliseconds: never below 0. A `null` parameter is
//! an absent one (a host's unset optional): the checked parameters leave it out; every other
//! value goes to the tool as given (`""` clears a field).
//!
//! Owns: reading the catalogue's schemas and the type rules. Must never: accept a parameter
//! the tool does not list, or change a value it accepts.

use crate::error::{Code, Error, Result};
use serde_json::{Map, Value};

/// Every tool's parameter schemas, by tool name.
pub struct Schemas {
    tools: Vec<(String, Map<String, Value>, Vec<String>)>,
}

impl Schemas {
    /// The schemas of `catalogue` (the text of catalogue.json): a parameter given as a string
    /// names an entry of its `shared` table.
    pub fn new(catalogue: &str) -> Result<Schemas> {
        let c: Value = serde_json::from_str(catalogue).map_err(|e| Error::json("catalogue", &e))?;
        let shared = c.get("shared").and_then(Value::as_object).cloned().unwrap_or_default();
        let mut tools = Vec::new();
        for t in c.get("tools").and_then(Value::as_array).into_iter().flatten() {
            let name = t.get("name").and_then(Value::as_str).ok_or_else(|| Error::malformed("catalogue", "a tool without a name"))?;
            let mut params = Map::new();
            for (k, p) in t.get("params").and_then(Value::as_object).into_iter().flatten() {
                let schema = match p {
                    Value::String(s) => shared.get(s).cloned().ok_or_else(|| Error::malformed("catalogue", format!("{name}.{k} names no shared parameter {s}")))?,
                    other => other.clone(),
                };
                params.insert(k.clone(), schema);
            }
            let required = strings(t.get("required"));
            tools.push((name.to_string(), params, required));
        }
        Ok(Schemas { tools })
    }

    /// `params` of a call of `method`, checked: the parameters the tool gets (nulls left out),
    /// or `INVALID_REQUEST` naming the first one that is wrong.
    pub fn check(&self, method: &str, params: &Value) -> Result<Map<String, Value>> {
        let (_, schema, required) = self.tools.iter().find(|(n, _, _)| n == method).ok_or_else(|| invalid(format!("unknown method {}", cut(method)), "see the tool list"))?;
        let Value::Object(given) = params else { return Err(invalid("params must be an object".into(), "pass the parameters as a JSON object")) };
        let mut out = Map::new();
        for (k, v) in given {
            let Some(s) = schema.get(k) else {
                let names: Vec<&str> = schema.keys().map(String::as_str).collect();
                return Err(invalid(format!("{method} has no parameter {}", cut(k)), &format!("its parameters: {}", names.join(", "))));
            };
            if v.is_null() {
                continue;
            }
            value(k, s, v)?;
            out.insert(k.clone(), v.clone());
        }
        if let Some(missing) = required.iter().find(|r| !out.contains_key(*r)) {
            return Err(invalid(format!("{method} needs {missing}"), "see the tool's parameters"));
        }
        Ok(out)
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}

fn invalid(message: String, hint: &str) -> Error {
    Error::new(Code::InvalidRequest, message, hint)
}

/// A name from the caller, as an error message quotes it.
fn cut(s: &str) -> String {
    crate::text::capped(s, crate::budget::ECHO_CHARS)
}

/// `v` (at `path`) against `schema`.
fn value(path: &str, schema: &Value, v: &Value) -> Result<()> {
    let kind = schema.get("type").and_then(Value::as_str).unwrap_or("");
    let ok = match kind {
        "integer" => v.as_f64().is_some_and(|n| n.is_finite() && n.fract() == 0.0 && n >= 0.0),
        "number" => v.as_f64().is_some_and(f64::is_finite),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        _ => true,
    };
    if !ok {
        return Err(invalid(format!("{path} must be {}", a(kind)), "see the tool's parameters"));
    }
    let n = v.as_f64().unwrap_or(0.0);
    let (min, max) = (schema.get("minimum").and_then(Value::as_f64), schema.get("maximum").and_then(Value::as_f64));
    if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
        let bound = |b: Option<f64>, none: &str| b.map_or(none.to_string(), |b| b.to_string());
        return Err(invalid(format!("{path} is {} to {}", bound(min, "0"), bound(max, "any")), "see the tool's parameters"));
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(v) {
            let names: Vec<String> = allowed.iter().map(|x| x.to_string()).collect();
            return Err(invalid(format!("{path} is one of {}", names.join(", ")), "see the tool's parameters"));
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), v.as_array()) {
        for (i, item) in list.iter().enumerate() {
            value(&format!("{path}[{i}]"), items, item)?;
        }
    }
    if let (Some(props), Some(obj)) = (schema.get("properties").and_then(Value::as_object), v.as_object()) {
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        for (k, x) in obj {
            match props.get(k) {
                Some(s) if !x.is_null() => value(&format!("{path}.{k}"), s, x)?,
                None if closed => return Err(invalid(format!("{path} has no field {}", cut(k)), &format!("its fields: {}", props.keys().cloned().collect::<Vec<_>>().join(", ")))),
                _ => {}
            }
        }
        if let Some(missing) = strings(schema.get("required")).into_iter().find(|r| obj.get(r).is_none_or(Value::is_null)) {
            return Err(invalid(format!("{path} needs {missing}"), "see the tool's parameters"));
        }
    }
    Ok(())
}

/// The type's name with its article, as a message says it.
fn a(kind: &str) -> &'static str {
    match kind {
        "integer" => "a non-negative integer",
        "number" => "a number",
        "string" => "a string",
        "boolean" => "true or false",
        "object" => "an object",
        _ => "an array",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CATALOGUE: &str = r#"{"shared": {"tabId": {"type": "integer"}}, "tools": [
        {"name": "t", "params": {"tabId": "tabId", "text": {"type": "string"}, "on": {"type": "boolean"}, "x": {"type": "number"},
          "source": {"type": "string", "enum": ["dom", "chromium_ax"]}, "paths": {"type": "array", "items": {"type": "string"}},
          "fields": {"type": "array", "items": {"type": "object", "properties": {"ref": {"type": "string"}, "value": {"type": "string"}}, "required": ["value"], "additionalProperties": false}}},
         "required": ["text"]}]}"#;

    fn check(params: Value, expect: &str) {
        let s = Schemas::new(CATALOGUE).unwrap();
        let got = match s.check("t", &params) {
            Ok(p) => Value::Object(p).to_string(),
            Err(e) => format!("{}: {}", e.code.as_str(), e.message),
        };
        assert_eq!(got, expect);
    }

    #[test]
    fn values_of_their_type_pass_unchanged() {
        check(json!({"text": "", "tabId": 3, "on": false, "x": -1.5, "source": "dom", "paths": ["/a"]}), r#"{"on":false,"paths":["/a"],"source":"dom","tabId":3,"text":"","x":-1.5}"#);
    }

    #[test]
    fn a_null_is_left_out() {
        check(json!({"text": "a", "tabId": null}), r#"{"text":"a"}"#);
    }

    #[test]
    fn an_unknown_parameter_is_refused() {
        check(json!({"text": "a", "tab": 1}), "INVALID_REQUEST: t has no parameter tab");
    }

    #[test]
    fn a_required_parameter_must_be_there() {
        check(json!({"tabId": 1}), "INVALID_REQUEST: t needs text");
        check(json!({"text": null}), "INVALID_REQUEST: t needs text");
    }

    #[test]
    fn a_number_stays_within_its_bounds() {
        let schemas = Schemas::new(r#"{"shared": {}, "tools": [{"name": "shot", "params": {"quality": {"type": "integer", "minimum": 1, "maximum": 100}}, "required": []}]}"#).unwrap();
        let got = |q: Value| schemas.check("shot", &json!({ "quality": q })).map(|_| ()).map_err(|e| format!("{}: {}", e.code.as_str(), e.message));
        assert_eq!(got(json!(80)), Ok(()));
        assert_eq!(got(json!(1)), Ok(()));
        assert_eq!(got(json!(0)), Err("INVALID_REQUEST: quality is 1 to 100".into()));
        assert_eq!(got(json!(101)), Err("INVALID_REQUEST: quality is 1 to 100".into()));
    }

    #[test]
    fn integers_are_whole_and_not_below_zero() {
        check(json!({"text": "a", "tabId": 1.5}), "INVALID_REQUEST: tabId must be a non-negative integer");
        check(json!({"text": "a", "tabId": -1}), "INVALID_REQUEST: tabId must be a non-negative integer");
        check(json!({"text": "a", "tabId": "1"}), "INVALID_REQUEST: tabId must be a non-negative integer");
    }

    #[test]
    fn each_type_is_checked() {
        check(json!({"text": 1}), "INVALID_REQUEST: text must be a string");
        check(json!({"text": "a", "on": "yes"}), "INVALID_REQUEST: on must be true or false");
        check(json!({"text": "a", "paths": "/a"}), "INVALID_REQUEST: paths must be an array");
        check(json!({"text": "a", "paths": [1]}), "INVALID_REQUEST: paths[0] must be a string");
    }

    #[test]
    fn an_enum_lists_its_values() {
        check(json!({"text": "a", "source": "ax"}), r#"INVALID_REQUEST: source is one of "dom", "chromium_ax""#);
    }

    #[test]
    fn a_closed_object_refuses_other_fields_and_needs_its_required_ones() {
        check(json!({"text": "a", "fields": [{"ref": "e1", "value": "v"}]}), r#"{"fields":[{"ref":"e1","value":"v"}],"text":"a"}"#);
        check(json!({"text": "a", "fields": [{"ref": "e1"}]}), "INVALID_REQUEST: fields[0] needs value");
        check(json!({"text": "a", "fields": [{"value": "v", "x": 1}]}), "INVALID_REQUEST: fields[0] has no field x");
    }

    #[test]
    fn params_must_be_an_object_and_the_method_known() {
        check(json!([1]), "INVALID_REQUEST: params must be an object");
        let s = Schemas::new(CATALOGUE).unwrap();
        assert_eq!(s.check("nope", &json!({})).unwrap_err().message, "unknown method nope");
    }

    #[test]
    fn the_real_catalogue_reads() {
        let s = Schemas::new(include_str!("../../extension/catalogue.json")).unwrap();
        assert!(s.tools.len() >= 40);
        assert!(s.check("browser_fill", &json!({"ref": "e1", "snapshotId": "s", "text": ""})).is_ok());
    }
}
