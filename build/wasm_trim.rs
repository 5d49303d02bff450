//! Drops code the browser module links but can never run (the `wasm-snip` approach, done with
//! `walrus` so it needs nothing installed): each function listed in [`DEAD`] gets an
//! `unreachable` body, then everything only those functions called is garbage-collected, and
//! the function names the linker kept for this step are dropped.
//!
//! Rust cannot leave these out itself: they sit behind trait objects (every `ColumnValues`
//! codec, every `Weight::explain`) or behind schema-dependent branches Tantivy decides at run
//! time. Each entry says why kbook's module never reaches it; the browser tests run the
//! trimmed module, and a listed name that matches nothing fails the build, so a Tantivy update
//! that moves the code is noticed rather than silently keeping it.

use walrus::ir::Instr;
use walrus::{FunctionBuilder, FunctionKind, ModuleConfig};

/// How a listed name is compared with a function's demangled name (without its hash and
/// without the `<` of a trait implementation).
enum Name {
    Prefix(&'static str),
    Suffix(&'static str),
}

/// Functions the module never runs, and why.
const DEAD: &[(Name, &str)] = &[
    (
        Name::Prefix("tantivy_columnar::column_values::"),
        "kbook's schema has no fast fields, so no column is ever opened (Tantivy reads only the \
         fast-field file's footer): the column codecs, indexes and readers never run",
    ),
    (
        Name::Prefix("tantivy_columnar::column_index::"),
        "no fast fields (see column_values)",
    ),
    (
        Name::Prefix("tantivy_columnar::column::"),
        "no fast fields (see column_values)",
    ),
    (
        Name::Prefix("tantivy_columnar::dynamic_column::DynamicColumnHandle::open"),
        "no fast fields (see column_values)",
    ),
    (
        Name::Prefix(
            "tantivy::query::range_query::range_query_fastfield::FastFieldRangeWeight as ",
        ),
        "a TermQuery takes this path only for a field that is fast but not indexed; kbook has none",
    ),
    (
        Name::Suffix(" as tantivy::query::weight::Weight>::explain"),
        "kbook explains a hit from its own clause matches; Tantivy's explanations are never asked for",
    ),
    (
        Name::Suffix("tantivy::query::query::Query::explain"),
        "see Weight::explain",
    ),
    (
        Name::Prefix("regex_lite::"),
        "Tantivy compiles a regular expression only to print a facet, and kbook's schema has none",
    ),
];

/// The module with the functions of [`DEAD`] and what only they reach removed, and without
/// names or custom sections. Errors when the module cannot be read or a listed name matches
/// no function.
pub fn trim(wasm: &[u8]) -> Result<Vec<u8>, String> {
    let mut config = ModuleConfig::new();
    config
        .generate_name_section(false)
        .generate_producers_section(false);
    let mut module = config
        .parse(wasm)
        .map_err(|e| format!("could not read the linked module: {e}"))?;
    if module.funcs.iter().all(|f| f.name.is_none()) {
        return Err("the linked module has no function names (was it stripped?)".into());
    }
    let mut matched = vec![0usize; DEAD.len()];
    let dead: Vec<_> = module
        .funcs
        .iter()
        .filter(|f| matches!(f.kind, FunctionKind::Local(_)))
        .filter_map(|f| {
            let name = format!("{:#}", rustc_demangle::demangle(f.name.as_deref()?));
            let name = name.strip_prefix('<').unwrap_or(&name);
            let hit = DEAD.iter().position(|(pattern, _)| match pattern {
                Name::Prefix(p) => name.starts_with(p),
                Name::Suffix(s) => name.ends_with(s),
            })?;
            matched[hit] += 1;
            Some((f.id(), f.ty()))
        })
        .collect();
    if let Some(i) = matched.iter().position(|&n| n == 0) {
        let pattern = match &DEAD[i].0 {
            Name::Prefix(p) => format!("{p}…"),
            Name::Suffix(s) => format!("…{s}"),
        };
        return Err(format!(
            "no function of the module matches `{pattern}` in build/wasm_trim.rs: the dependency \
             changed; check the reason given there and update or remove the entry"
        ));
    }
    for (id, ty) in dead {
        let (params, results) = {
            let ty = module.types.get(ty);
            (ty.params().to_vec(), ty.results().to_vec())
        };
        let mut body = FunctionBuilder::new(&mut module.types, &params, &results);
        body.func_body()
            .instr(Instr::Unreachable(walrus::ir::Unreachable {}));
        let args = params.iter().map(|&p| module.locals.add(p)).collect();
        let local = body.local_func(args);
        if let FunctionKind::Local(f) = &mut module.funcs.get_mut(id).kind {
            *f = local;
        }
    }
    walrus::passes::gc::run(&mut module);
    let customs: Vec<_> = module.customs.iter().map(|(id, _)| id).collect();
    for id in customs {
        module.customs.delete(id);
    }
    Ok(module.emit_wasm())
}
