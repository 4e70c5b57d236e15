//! The viewport's size, as the page reports it (an observation's and a frame walk's).
//!
//! Owns: its wire shape. Must never: hold a position or a scale.

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Viewport {
    pub width: f64,
    pub height: f64,
}
