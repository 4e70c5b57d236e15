//! What a host shows of a Bridge result: the model text (the core's `model_text`, fenced as
//! untrusted page content unless asked not to) and, for a screenshot, the image apart.
//!
//! Owns: splitting attachments from text. Must never: put Base64 into the text.

use pcc::model::model_text::{model_text, TextOptions};
use serde_json::Value;

pub struct Shown {
    pub text: String,
    /// A screenshot's image, Base64, never part of `text`.
    pub image: Option<String>,
    /// Its MIME type, as the extension encoded it (`image/png`, `image/jpeg`, `image/webp`).
    pub mime: String,
}

pub fn show(method: &str, result: &Value, opts: TextOptions) -> Shown {
    let mut value = result.clone();
    let attachment = value.as_object_mut().and_then(|o| o.remove("attachment"));
    let image = attachment.as_ref().and_then(|a| a.get("data").and_then(Value::as_str).map(str::to_string));
    let mime = attachment.as_ref().and_then(|a| a.get("mimeType").and_then(Value::as_str)).unwrap_or("image/png").to_string();
    // A screenshot's model text is exactly the tool's sentence.
    if image.is_some() {
        if let Some(text) = value.get("text").and_then(Value::as_str) {
            return Shown { text: text.to_string(), image, mime };
        }
    }
    Shown { text: model_text(method, &value, opts), image, mime }
}

/// The tool error of a result, as `CODE: message (hint: …)`.
pub fn error_line(result: &Value) -> Option<String> {
    let e = result.get("error")?;
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
    Some(format!("{}: {} (hint: {})", s("code"), s("message"), s("hint")))
}
