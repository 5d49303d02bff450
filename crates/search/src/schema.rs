//! The index schema: searchable text fields with their analyzers and boosts, plus stored and
//! raw fields for display and filters.

use crate::analysis::Analyzer;
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};

/// A searchable text field.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextField {
    pub name: &'static str,
    pub analyzer: Analyzer,
    /// Default boost (see [`crate::Tuning`]).
    pub boost: f32,
    /// Indexed with positions (phrase queries).
    pub positions: bool,
    /// Stored for display.
    pub stored: bool,
}

/// Searchable fields, strongest first. Boost order: error signature ≫
/// identifiers/codes > title > body > code blocks. The code boost was 0.6 until measured on
/// real users' queries (`kbook eval --tune code=W`, top-1): lower was better on every
/// real-world set, with and without 5,000 distractors (0.3: dev 0.700 → 0.714, machine
/// texts 0.903 → 0.919, curated 0.984 → 0.989; 0 was better still on questions but drops a
/// field other books may need, where error texts stand only in code blocks).
pub(crate) const TEXT_FIELDS: [TextField; 6] = [
    TextField {
        name: "sig",
        analyzer: Analyzer::Sig,
        boost: 4.0,
        positions: true,
        stored: true,
    },
    TextField {
        name: "ids",
        analyzer: Analyzer::Ident,
        boost: 3.0,
        positions: false,
        stored: false,
    },
    TextField {
        name: "title",
        analyzer: Analyzer::Prose,
        boost: 2.5,
        positions: true,
        stored: true,
    },
    TextField {
        name: "tags",
        analyzer: Analyzer::Prose,
        boost: 1.5,
        positions: false,
        stored: false,
    },
    TextField {
        name: "body",
        analyzer: Analyzer::Prose,
        boost: 1.0,
        positions: true,
        stored: true,
    },
    TextField {
        name: "code",
        analyzer: Analyzer::Code,
        boost: 0.3,
        positions: true,
        stored: false,
    },
];

pub(crate) const F_SIG: usize = 0;
pub(crate) const F_IDS: usize = 1;
pub(crate) const F_TITLE: usize = 2;
pub(crate) const F_TAGS: usize = 3;
pub(crate) const F_BODY: usize = 4;
pub(crate) const F_CODE: usize = 5;

/// The schema and its field handles.
#[derive(Debug, Clone)]
pub(crate) struct KbSchema {
    pub schema: Schema,
    /// Handles of [`TEXT_FIELDS`], same order.
    pub text: [Field; 6],
    pub id: Field,
    pub url: Field,
    pub connector: Field,
    /// Other names of the connector (keywords): they name it in a query, and weigh no word.
    pub aliases: Field,
    /// Each alias with the slug it names, `alias slug` (keywords, not stored): the query
    /// builder reads the whole (small) dictionary to write the slug beside the alias.
    pub alias_of: Field,
    /// The connector slug of an entry whose section applies to every connector (keywords,
    /// stored; see [`crate::EntryDoc::cross_connector`]).
    pub cross_connector: Field,
    pub kind: Field,
    pub versions: Field,
    /// The entry's generic error texts (stored only; see [`crate::EntryDoc::generic_errors`]).
    pub generic: Field,
    /// The entry's symptom lines (stored only; indexed in the tags field).
    pub symptoms: Field,
    /// The ids of the body's headings, one per line (stored only; see
    /// [`crate::EntryDoc::anchors`]).
    pub anchors: Field,
}

impl KbSchema {
    pub fn build() -> KbSchema {
        let mut b = Schema::builder();
        let text = TEXT_FIELDS.map(|f| {
            let record = if f.positions {
                IndexRecordOption::WithFreqsAndPositions
            } else {
                IndexRecordOption::WithFreqs
            };
            let indexing = TextFieldIndexing::default()
                .set_tokenizer(f.analyzer.name())
                .set_index_option(record);
            let mut opts = TextOptions::default().set_indexing_options(indexing);
            if f.stored {
                opts = opts.set_stored();
            }
            b.add_text_field(f.name, opts)
        });
        let id = b.add_text_field("id", STRING | STORED);
        let url = b.add_text_field("url", STORED);
        let connector = b.add_text_field("connector", STRING | STORED);
        let aliases = b.add_text_field("aliases", STRING | STORED);
        let alias_of = b.add_text_field("alias_of", STRING);
        let cross_connector = b.add_text_field("cross_connector", STRING | STORED);
        let kind = b.add_text_field("kind", STRING | STORED);
        let versions = b.add_text_field("versions", STORED);
        let generic = b.add_text_field("generic", STORED);
        let symptoms = b.add_text_field("symptoms", STORED);
        let anchors = b.add_text_field("anchors", STORED);
        KbSchema {
            schema: b.build(),
            text,
            id,
            url,
            connector,
            aliases,
            alias_of,
            cross_connector,
            kind,
            versions,
            generic,
            symptoms,
            anchors,
        }
    }

    /// Resolves the handles against an opened index's schema (it must be ours).
    pub fn from_schema(schema: &Schema) -> Result<KbSchema, crate::SearchError> {
        let expected = KbSchema::build();
        if expected.schema != *schema {
            return Err(crate::SearchError::Corrupt(
                "the index schema is not this version's schema".into(),
            ));
        }
        Ok(expected)
    }
}

/// Index settings for writing. Document-store blocks are small: the browser fetches the
/// stored fields of each hit it shows, and a read loads the whole block around a document
/// (Tantivy's default is 16 KiB, several entries). The store's skip index grows with the block
/// count; at this size it stays well under the store itself.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn index_settings() -> tantivy::IndexSettings {
    tantivy::IndexSettings {
        docstore_blocksize: DOCSTORE_BLOCK_BYTES,
        ..tantivy::IndexSettings::default()
    }
}

/// See [`index_settings`].
#[cfg(not(target_arch = "wasm32"))]
const DOCSTORE_BLOCK_BYTES: usize = 2048;
