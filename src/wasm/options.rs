//! Readers of the tools' option objects (`{maxChars, maxNodes, tab, …}`), on the same
//! parser as the observations. Unknown fields are ignored; a wrong type is an error. They
//! belong to the facade: the option types are the tools' own, so reading them in `input`
//! would make the wire layer depend on every tool.

use crate::input::json::Parser;
use crate::collector::{AxOptions, SnapshotOptions};
use crate::error::Result;
use crate::extract::ExtractOptions;
use crate::journal::ReadOptions;
use crate::refs::TabKey;
use crate::visible_dom::CuaOptions;

/// A non-negative count; negative values read as 0.
fn count(p: &mut Parser<'_>) -> Result<Option<u64>> {
    Ok(p.opt_i64()?.map(|v| v.max(0) as u64))
}

pub fn tab_key(p: &mut Parser<'_>) -> Result<TabKey> {
    let mut t = TabKey::default();
    p.object(|p, k| {
        match k {
            "tabId" => t.tab_id = p.i64()?,
            "browserId" => t.browser_id = p.string()?,
            "tabFence" => t.tab_fence = p.string()?,
            "incarnation" => t.incarnation = p.string()?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(t)
}

pub fn snapshot(p: &mut Parser<'_>) -> Result<SnapshotOptions> {
    let mut o = SnapshotOptions::default();
    p.object(|p, k| {
        match k {
            "maxChars" => o.max_chars = count(p)?,
            "maxNodes" => o.max_nodes = count(p)?,
            "tab" => o.tab = tab_key(p)?,
            "page" => o.page = count(p)?.filter(|&n| n > 0),
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(o)
}

pub fn accessibility(p: &mut Parser<'_>) -> Result<AxOptions> {
    let mut o = AxOptions::default();
    p.object(|p, k| {
        match k {
            "maxChars" => o.max_chars = count(p)?,
            "maxNodes" => o.max_nodes = count(p)?,
            "tab" => o.tab = tab_key(p)?,
            "sessionId" => o.session_id = p.string()?,
            "scope" => o.scope = p.string()?,
            "disableDiffing" => o.disable_diffing = p.bool()?,
            "baseSnapshotId" => o.base_snapshot_id = p.opt_string()?,
            "unchangedSince" => o.unchanged_since = p.opt_string()?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(o)
}

pub fn journal_read(p: &mut Parser<'_>) -> Result<ReadOptions> {
    let mut o = ReadOptions::default();
    p.object(|p, k| {
        match k {
            "maxEntries" => o.max_entries = count(p)?,
            "maxChars" => o.max_chars = count(p)?,
            "filter" => o.filter = p.opt_string()?,
            "fields" => o.fields = p.opt_string()?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(o)
}

pub fn cua(p: &mut Parser<'_>) -> Result<CuaOptions> {
    let mut o = CuaOptions::default();
    p.object(|p, k| {
        match k {
            "maxChars" => o.max_chars = count(p)?,
            "maxNodes" => o.max_nodes = count(p)?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(o)
}

pub fn extract(p: &mut Parser<'_>) -> Result<ExtractOptions> {
    let mut o = ExtractOptions::default();
    p.object(|p, k| {
        match k {
            "maxChars" => o.max_chars = count(p)?,
            "format" => o.format = p.opt_string()?,
            "offset" => o.offset = count(p)?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(o)
}

