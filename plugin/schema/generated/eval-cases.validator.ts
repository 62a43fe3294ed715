/* Generated from the JSON Schema by `npm run generate`. Do not edit. */
// @ts-nocheck -- Ajv standalone output, bundled by esbuild; typed by the wrapper below.
var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};

// node_modules/ajv/dist/runtime/ucs2length.js
var require_ucs2length = __commonJS({
  "node_modules/ajv/dist/runtime/ucs2length.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    function ucs2length(str) {
      const len = str.length;
      let length = 0;
      let pos = 0;
      let value;
      while (pos < len) {
        length++;
        value = str.charCodeAt(pos++);
        if (value >= 55296 && value <= 56319 && pos < len) {
          value = str.charCodeAt(pos);
          if ((value & 64512) === 56320)
            pos++;
        }
      }
      return length;
    }
    exports.default = ucs2length;
    ucs2length.code = 'require("ajv/dist/runtime/ucs2length").default';
  }
});

// validator.mjs
var validateEvalCasesCompiled = validate20;
var func1 = require_ucs2length().default;
var pattern4 = new RegExp("^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$", "u");
var pattern5 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", "u");
var schema38 = { "title": "Assertion", "description": "One check of a run, chosen by `type`.", "type": "object", "required": ["type"], "properties": { "type": { "type": "string", "enum": ["equals", "contains", "not-contains", "regex", "json-schema", "max-length", "max-latency", "max-cost", "tool-called", "tool-not-called", "no-egress-outside-allowlist", "invariant", "rubric"], "description": "The assertion kind; selects which of the shapes below applies." } }, "discriminator": { "propertyName": "type" }, "oneOf": [{ "type": "object", "title": "AssertEquals", "description": "The answer equals a value: a string is compared with the answer's text exactly; any other JSON value with the answer's data (or its text parsed as JSON), by canonical JSON.", "additionalProperties": false, "required": ["type"], "properties": { "type": { "const": "equals", "description": "The assertion kind." }, "value": { "description": "What the answer must equal; absent: the case's `expected` (its `text`, else its `data`)." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertContains", "description": "The answer's text contains a string.", "additionalProperties": false, "required": ["type", "value"], "properties": { "type": { "const": "contains", "description": "The assertion kind." }, "value": { "type": "string", "minLength": 1, "maxLength": 1e4, "description": "The text to find." }, "caseSensitive": { "type": "boolean", "description": "Compare case-sensitively (default true); false folds case with `toLowerCase`." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertNotContains", "description": "The answer's text does not contain a string.", "additionalProperties": false, "required": ["type", "value"], "properties": { "type": { "const": "not-contains", "description": "The assertion kind." }, "value": { "type": "string", "minLength": 1, "maxLength": 1e4, "description": "The text that must not appear." }, "caseSensitive": { "type": "boolean", "description": "Compare case-sensitively (default true)." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertRegex", "description": "The answer's text matches a regular expression (JavaScript syntax). With only the flags `m` and `s` and no lookaround or backreference the pattern runs on V8's linear-time engine (answers up to 1,000,000 characters). Otherwise, so that no pattern can backtrack catastrophically, it is refused when the file is loaded unless it has no backreference, no quantified group that holds a quantifier or an alternation, and at most one unbounded quantifier (`*`, `+`, `{n,}`); such a pattern is matched against answers up to 20,000 characters. A longer answer fails the assertion.", "additionalProperties": false, "required": ["type", "pattern"], "properties": { "type": { "const": "regex", "description": "The assertion kind." }, "pattern": { "type": "string", "minLength": 1, "maxLength": 1e3, "description": "The regular expression, without slashes." }, "flags": { "type": "string", "pattern": "^[imsu]{0,4}$", "x-message": "must be some of the flags i, m, s, u", "description": "Flags: some of `i`, `m`, `s`, `u`." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertJsonSchema", "description": "The answer's data (or its text parsed as JSON) is valid against a JSON Schema (draft 2020-12; the standard formats; no remote references). Its patterns obey the regex assertion's rules.", "additionalProperties": false, "required": ["type", "schema"], "properties": { "type": { "const": "json-schema", "description": "The assertion kind." }, "schema": { "type": "object", "description": "The JSON Schema the output must satisfy." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertMaxLength", "description": "The answer's text has at most this many characters (Unicode code points).", "additionalProperties": false, "required": ["type", "chars"], "properties": { "type": { "const": "max-length", "description": "The assertion kind." }, "chars": { "type": "integer", "minimum": 0, "description": "The most characters allowed." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertMaxLatency", "description": "The run took at most this long, end to end.", "additionalProperties": false, "required": ["type", "ms"], "properties": { "type": { "const": "max-latency", "description": "The assertion kind." }, "ms": { "type": "integer", "minimum": 0, "description": "The most milliseconds allowed." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertMaxCost", "description": "The run's cost stays within limits (grader calls not counted); give `tokens`, `modelCalls` or both.", "additionalProperties": false, "required": ["type"], "properties": { "type": { "const": "max-cost", "description": "The assertion kind." }, "tokens": { "type": "integer", "minimum": 0, "description": "The most tokens (input plus output) of every model call of the run." }, "modelCalls": { "type": "integer", "minimum": 0, "description": "The most model calls of the run." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertToolCalled", "description": "The run called a tool (by the name the model calls it, `toolInventory[].name`).", "additionalProperties": false, "required": ["type", "tool"], "properties": { "type": { "const": "tool-called", "description": "The assertion kind." }, "tool": { "type": "string", "minLength": 1, "maxLength": 256, "description": "The tool name." }, "times": { "type": "integer", "minimum": 1, "description": "Exactly this many calls; absent: at least one." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertToolNotCalled", "description": "The run never called a tool.", "additionalProperties": false, "required": ["type", "tool"], "properties": { "type": { "const": "tool-not-called", "description": "The assertion kind." }, "tool": { "type": "string", "minLength": 1, "maxLength": 256, "description": "The tool name." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertNoEgress", "description": "The run never tried to reach a host outside its egress allow-list.", "additionalProperties": false, "required": ["type"], "properties": { "type": { "const": "no-egress-outside-allowlist", "description": "The assertion kind." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertInvariant", "description": "Model-graded: the answer satisfies one of the definition's `capabilityContract.invariants`, as a grader judges it.", "additionalProperties": false, "required": ["type", "invariant"], "properties": { "type": { "const": "invariant", "description": "The assertion kind." }, "invariant": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }], "description": "The invariant: its 0-based index, or its exact text." }, "threshold": { "type": "number", "minimum": 0, "maximum": 1, "description": "The grader's score (0..1) at or above which the assertion passes; absent: it passes when the grader's verdict passes." }, "grader": { "$ref": "#/$defs/PinName", "description": "The pin that judges (its `name` in the definition's modelSet, or its `modelId`); default: the file's `grader`, else the definition's `evaluator` pin." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }, { "type": "object", "title": "AssertRubric", "description": "Model-graded: the answer satisfies a rubric (one criterion, or several that must all hold), as a grader judges it.", "additionalProperties": false, "required": ["type", "rubric"], "properties": { "type": { "const": "rubric", "description": "The assertion kind." }, "rubric": { "anyOf": [{ "type": "string", "minLength": 1, "maxLength": 4e3 }, { "type": "array", "minItems": 1, "maxItems": 32, "items": { "type": "string", "minLength": 1, "maxLength": 4e3 } }], "description": "The criterion, or a list of criteria." }, "threshold": { "type": "number", "minimum": 0, "maximum": 1, "description": "The grader's score (0..1) at or above which the assertion passes; absent: it passes when the grader's verdict passes." }, "grader": { "$ref": "#/$defs/PinName", "description": "The pin that judges (its `name` in the definition's modelSet, or its `modelId`); default: the file's `grader`, else the definition's `evaluator` pin." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." }, "covers": { "type": "array", "minItems": 1, "maxItems": 64, "items": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }] }, "description": "The definition's invariants this assertion checks (0-based indices or exact texts), so they count as scored (an `invariant` assertion covers its own)." } } }] };
var pattern9 = new RegExp("^[imsu]{0,4}$", "u");
function validate22(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate22.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.type === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.type !== void 0) {
      let data0 = data.type;
      if (typeof data0 !== "string") {
        const err1 = { instancePath: instancePath + "/type", schemaPath: "#/properties/type/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err1];
        } else {
          vErrors.push(err1);
        }
        errors++;
      }
      if (!(data0 === "equals" || data0 === "contains" || data0 === "not-contains" || data0 === "regex" || data0 === "json-schema" || data0 === "max-length" || data0 === "max-latency" || data0 === "max-cost" || data0 === "tool-called" || data0 === "tool-not-called" || data0 === "no-egress-outside-allowlist" || data0 === "invariant" || data0 === "rubric")) {
        const err2 = { instancePath: instancePath + "/type", schemaPath: "#/properties/type/enum", keyword: "enum", params: { allowedValues: schema38.properties.type.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    const tag0 = data.type;
    if (typeof tag0 == "string") {
      if (tag0 === "equals") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err3 = { instancePath, schemaPath: "#/oneOf/0/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err3];
            } else {
              vErrors.push(err3);
            }
            errors++;
          }
          for (const key0 in data) {
            if (!(key0 === "type" || key0 === "value" || key0 === "id" || key0 === "weight" || key0 === "covers")) {
              const err4 = { instancePath, schemaPath: "#/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err4];
              } else {
                vErrors.push(err4);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("equals" !== data.type) {
              const err5 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/0/properties/type/const", keyword: "const", params: { allowedValue: "equals" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err5];
              } else {
                vErrors.push(err5);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data2 = data.id;
            if (typeof data2 === "string") {
              if (!pattern5.test(data2)) {
                const err6 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err6];
                } else {
                  vErrors.push(err6);
                }
                errors++;
              }
            } else {
              const err7 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err7];
              } else {
                vErrors.push(err7);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data3 = data.weight;
            if (typeof data3 == "number" && isFinite(data3)) {
              if (data3 > 1e3 || isNaN(data3)) {
                const err8 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/0/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err8];
                } else {
                  vErrors.push(err8);
                }
                errors++;
              }
              if (data3 < 0 || isNaN(data3)) {
                const err9 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/0/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err9];
                } else {
                  vErrors.push(err9);
                }
                errors++;
              }
            } else {
              const err10 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/0/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err10];
              } else {
                vErrors.push(err10);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data4 = data.covers;
            if (Array.isArray(data4)) {
              if (data4.length > 64) {
                const err11 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/0/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err11];
                } else {
                  vErrors.push(err11);
                }
                errors++;
              }
              if (data4.length < 1) {
                const err12 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/0/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err12];
                } else {
                  vErrors.push(err12);
                }
                errors++;
              }
              const len0 = data4.length;
              for (let i0 = 0; i0 < len0; i0++) {
                let data5 = data4[i0];
                const _errs17 = errors;
                let valid7 = false;
                const _errs18 = errors;
                if (!(typeof data5 == "number" && (!(data5 % 1) && !isNaN(data5)) && isFinite(data5))) {
                  const err13 = { instancePath: instancePath + "/covers/" + i0, schemaPath: "#/oneOf/0/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err13];
                  } else {
                    vErrors.push(err13);
                  }
                  errors++;
                }
                if (typeof data5 == "number" && isFinite(data5)) {
                  if (data5 < 0 || isNaN(data5)) {
                    const err14 = { instancePath: instancePath + "/covers/" + i0, schemaPath: "#/oneOf/0/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err14];
                    } else {
                      vErrors.push(err14);
                    }
                    errors++;
                  }
                }
                var _valid0 = _errs18 === errors;
                valid7 = valid7 || _valid0;
                const _errs20 = errors;
                if (typeof data5 === "string") {
                  if (func1(data5) > 4e3) {
                    const err15 = { instancePath: instancePath + "/covers/" + i0, schemaPath: "#/oneOf/0/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err15];
                    } else {
                      vErrors.push(err15);
                    }
                    errors++;
                  }
                  if (func1(data5) < 1) {
                    const err16 = { instancePath: instancePath + "/covers/" + i0, schemaPath: "#/oneOf/0/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err16];
                    } else {
                      vErrors.push(err16);
                    }
                    errors++;
                  }
                } else {
                  const err17 = { instancePath: instancePath + "/covers/" + i0, schemaPath: "#/oneOf/0/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err17];
                  } else {
                    vErrors.push(err17);
                  }
                  errors++;
                }
                var _valid0 = _errs20 === errors;
                valid7 = valid7 || _valid0;
                if (!valid7) {
                  const err18 = { instancePath: instancePath + "/covers/" + i0, schemaPath: "#/oneOf/0/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err18];
                  } else {
                    vErrors.push(err18);
                  }
                  errors++;
                } else {
                  errors = _errs17;
                  if (vErrors !== null) {
                    if (_errs17) {
                      vErrors.length = _errs17;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err19 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/0/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err19];
              } else {
                vErrors.push(err19);
              }
              errors++;
            }
          }
        } else {
          const err20 = { instancePath, schemaPath: "#/oneOf/0/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err20];
          } else {
            vErrors.push(err20);
          }
          errors++;
        }
        var props0 = true;
      } else if (tag0 === "contains") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err21 = { instancePath, schemaPath: "#/oneOf/1/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err21];
            } else {
              vErrors.push(err21);
            }
            errors++;
          }
          if (data.value === void 0) {
            const err22 = { instancePath, schemaPath: "#/oneOf/1/required", keyword: "required", params: { missingProperty: "value" }, message: "must have required property 'value'" };
            if (vErrors === null) {
              vErrors = [err22];
            } else {
              vErrors.push(err22);
            }
            errors++;
          }
          for (const key1 in data) {
            if (!(key1 === "type" || key1 === "value" || key1 === "caseSensitive" || key1 === "id" || key1 === "weight" || key1 === "covers")) {
              const err23 = { instancePath, schemaPath: "#/oneOf/1/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err23];
              } else {
                vErrors.push(err23);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("contains" !== data.type) {
              const err24 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/1/properties/type/const", keyword: "const", params: { allowedValue: "contains" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err24];
              } else {
                vErrors.push(err24);
              }
              errors++;
            }
          }
          if (data.value !== void 0) {
            let data7 = data.value;
            if (typeof data7 === "string") {
              if (func1(data7) > 1e4) {
                const err25 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/1/properties/value/maxLength", keyword: "maxLength", params: { limit: 1e4 }, message: "must NOT have more than 10000 characters" };
                if (vErrors === null) {
                  vErrors = [err25];
                } else {
                  vErrors.push(err25);
                }
                errors++;
              }
              if (func1(data7) < 1) {
                const err26 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/1/properties/value/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err26];
                } else {
                  vErrors.push(err26);
                }
                errors++;
              }
            } else {
              const err27 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/1/properties/value/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err27];
              } else {
                vErrors.push(err27);
              }
              errors++;
            }
          }
          if (data.caseSensitive !== void 0) {
            if (typeof data.caseSensitive !== "boolean") {
              const err28 = { instancePath: instancePath + "/caseSensitive", schemaPath: "#/oneOf/1/properties/caseSensitive/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
              if (vErrors === null) {
                vErrors = [err28];
              } else {
                vErrors.push(err28);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data9 = data.id;
            if (typeof data9 === "string") {
              if (!pattern5.test(data9)) {
                const err29 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err29];
                } else {
                  vErrors.push(err29);
                }
                errors++;
              }
            } else {
              const err30 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err30];
              } else {
                vErrors.push(err30);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data10 = data.weight;
            if (typeof data10 == "number" && isFinite(data10)) {
              if (data10 > 1e3 || isNaN(data10)) {
                const err31 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/1/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err31];
                } else {
                  vErrors.push(err31);
                }
                errors++;
              }
              if (data10 < 0 || isNaN(data10)) {
                const err32 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/1/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err32];
                } else {
                  vErrors.push(err32);
                }
                errors++;
              }
            } else {
              const err33 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/1/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err33];
              } else {
                vErrors.push(err33);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data11 = data.covers;
            if (Array.isArray(data11)) {
              if (data11.length > 64) {
                const err34 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/1/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err34];
                } else {
                  vErrors.push(err34);
                }
                errors++;
              }
              if (data11.length < 1) {
                const err35 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/1/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err35];
                } else {
                  vErrors.push(err35);
                }
                errors++;
              }
              const len1 = data11.length;
              for (let i1 = 0; i1 < len1; i1++) {
                let data12 = data11[i1];
                const _errs39 = errors;
                let valid13 = false;
                const _errs40 = errors;
                if (!(typeof data12 == "number" && (!(data12 % 1) && !isNaN(data12)) && isFinite(data12))) {
                  const err36 = { instancePath: instancePath + "/covers/" + i1, schemaPath: "#/oneOf/1/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err36];
                  } else {
                    vErrors.push(err36);
                  }
                  errors++;
                }
                if (typeof data12 == "number" && isFinite(data12)) {
                  if (data12 < 0 || isNaN(data12)) {
                    const err37 = { instancePath: instancePath + "/covers/" + i1, schemaPath: "#/oneOf/1/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err37];
                    } else {
                      vErrors.push(err37);
                    }
                    errors++;
                  }
                }
                var _valid1 = _errs40 === errors;
                valid13 = valid13 || _valid1;
                const _errs42 = errors;
                if (typeof data12 === "string") {
                  if (func1(data12) > 4e3) {
                    const err38 = { instancePath: instancePath + "/covers/" + i1, schemaPath: "#/oneOf/1/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err38];
                    } else {
                      vErrors.push(err38);
                    }
                    errors++;
                  }
                  if (func1(data12) < 1) {
                    const err39 = { instancePath: instancePath + "/covers/" + i1, schemaPath: "#/oneOf/1/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err39];
                    } else {
                      vErrors.push(err39);
                    }
                    errors++;
                  }
                } else {
                  const err40 = { instancePath: instancePath + "/covers/" + i1, schemaPath: "#/oneOf/1/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err40];
                  } else {
                    vErrors.push(err40);
                  }
                  errors++;
                }
                var _valid1 = _errs42 === errors;
                valid13 = valid13 || _valid1;
                if (!valid13) {
                  const err41 = { instancePath: instancePath + "/covers/" + i1, schemaPath: "#/oneOf/1/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err41];
                  } else {
                    vErrors.push(err41);
                  }
                  errors++;
                } else {
                  errors = _errs39;
                  if (vErrors !== null) {
                    if (_errs39) {
                      vErrors.length = _errs39;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err42 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/1/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err42];
              } else {
                vErrors.push(err42);
              }
              errors++;
            }
          }
        } else {
          const err43 = { instancePath, schemaPath: "#/oneOf/1/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err43];
          } else {
            vErrors.push(err43);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "not-contains") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err44 = { instancePath, schemaPath: "#/oneOf/2/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err44];
            } else {
              vErrors.push(err44);
            }
            errors++;
          }
          if (data.value === void 0) {
            const err45 = { instancePath, schemaPath: "#/oneOf/2/required", keyword: "required", params: { missingProperty: "value" }, message: "must have required property 'value'" };
            if (vErrors === null) {
              vErrors = [err45];
            } else {
              vErrors.push(err45);
            }
            errors++;
          }
          for (const key2 in data) {
            if (!(key2 === "type" || key2 === "value" || key2 === "caseSensitive" || key2 === "id" || key2 === "weight" || key2 === "covers")) {
              const err46 = { instancePath, schemaPath: "#/oneOf/2/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err46];
              } else {
                vErrors.push(err46);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("not-contains" !== data.type) {
              const err47 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/2/properties/type/const", keyword: "const", params: { allowedValue: "not-contains" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err47];
              } else {
                vErrors.push(err47);
              }
              errors++;
            }
          }
          if (data.value !== void 0) {
            let data14 = data.value;
            if (typeof data14 === "string") {
              if (func1(data14) > 1e4) {
                const err48 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/2/properties/value/maxLength", keyword: "maxLength", params: { limit: 1e4 }, message: "must NOT have more than 10000 characters" };
                if (vErrors === null) {
                  vErrors = [err48];
                } else {
                  vErrors.push(err48);
                }
                errors++;
              }
              if (func1(data14) < 1) {
                const err49 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/2/properties/value/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err49];
                } else {
                  vErrors.push(err49);
                }
                errors++;
              }
            } else {
              const err50 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/2/properties/value/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err50];
              } else {
                vErrors.push(err50);
              }
              errors++;
            }
          }
          if (data.caseSensitive !== void 0) {
            if (typeof data.caseSensitive !== "boolean") {
              const err51 = { instancePath: instancePath + "/caseSensitive", schemaPath: "#/oneOf/2/properties/caseSensitive/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
              if (vErrors === null) {
                vErrors = [err51];
              } else {
                vErrors.push(err51);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data16 = data.id;
            if (typeof data16 === "string") {
              if (!pattern5.test(data16)) {
                const err52 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err52];
                } else {
                  vErrors.push(err52);
                }
                errors++;
              }
            } else {
              const err53 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err53];
              } else {
                vErrors.push(err53);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data17 = data.weight;
            if (typeof data17 == "number" && isFinite(data17)) {
              if (data17 > 1e3 || isNaN(data17)) {
                const err54 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/2/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err54];
                } else {
                  vErrors.push(err54);
                }
                errors++;
              }
              if (data17 < 0 || isNaN(data17)) {
                const err55 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/2/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err55];
                } else {
                  vErrors.push(err55);
                }
                errors++;
              }
            } else {
              const err56 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/2/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err56];
              } else {
                vErrors.push(err56);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data18 = data.covers;
            if (Array.isArray(data18)) {
              if (data18.length > 64) {
                const err57 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/2/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err57];
                } else {
                  vErrors.push(err57);
                }
                errors++;
              }
              if (data18.length < 1) {
                const err58 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/2/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err58];
                } else {
                  vErrors.push(err58);
                }
                errors++;
              }
              const len2 = data18.length;
              for (let i2 = 0; i2 < len2; i2++) {
                let data19 = data18[i2];
                const _errs61 = errors;
                let valid19 = false;
                const _errs62 = errors;
                if (!(typeof data19 == "number" && (!(data19 % 1) && !isNaN(data19)) && isFinite(data19))) {
                  const err59 = { instancePath: instancePath + "/covers/" + i2, schemaPath: "#/oneOf/2/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err59];
                  } else {
                    vErrors.push(err59);
                  }
                  errors++;
                }
                if (typeof data19 == "number" && isFinite(data19)) {
                  if (data19 < 0 || isNaN(data19)) {
                    const err60 = { instancePath: instancePath + "/covers/" + i2, schemaPath: "#/oneOf/2/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err60];
                    } else {
                      vErrors.push(err60);
                    }
                    errors++;
                  }
                }
                var _valid2 = _errs62 === errors;
                valid19 = valid19 || _valid2;
                const _errs64 = errors;
                if (typeof data19 === "string") {
                  if (func1(data19) > 4e3) {
                    const err61 = { instancePath: instancePath + "/covers/" + i2, schemaPath: "#/oneOf/2/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err61];
                    } else {
                      vErrors.push(err61);
                    }
                    errors++;
                  }
                  if (func1(data19) < 1) {
                    const err62 = { instancePath: instancePath + "/covers/" + i2, schemaPath: "#/oneOf/2/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err62];
                    } else {
                      vErrors.push(err62);
                    }
                    errors++;
                  }
                } else {
                  const err63 = { instancePath: instancePath + "/covers/" + i2, schemaPath: "#/oneOf/2/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err63];
                  } else {
                    vErrors.push(err63);
                  }
                  errors++;
                }
                var _valid2 = _errs64 === errors;
                valid19 = valid19 || _valid2;
                if (!valid19) {
                  const err64 = { instancePath: instancePath + "/covers/" + i2, schemaPath: "#/oneOf/2/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err64];
                  } else {
                    vErrors.push(err64);
                  }
                  errors++;
                } else {
                  errors = _errs61;
                  if (vErrors !== null) {
                    if (_errs61) {
                      vErrors.length = _errs61;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err65 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/2/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err65];
              } else {
                vErrors.push(err65);
              }
              errors++;
            }
          }
        } else {
          const err66 = { instancePath, schemaPath: "#/oneOf/2/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err66];
          } else {
            vErrors.push(err66);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "regex") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err67 = { instancePath, schemaPath: "#/oneOf/3/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err67];
            } else {
              vErrors.push(err67);
            }
            errors++;
          }
          if (data.pattern === void 0) {
            const err68 = { instancePath, schemaPath: "#/oneOf/3/required", keyword: "required", params: { missingProperty: "pattern" }, message: "must have required property 'pattern'" };
            if (vErrors === null) {
              vErrors = [err68];
            } else {
              vErrors.push(err68);
            }
            errors++;
          }
          for (const key3 in data) {
            if (!(key3 === "type" || key3 === "pattern" || key3 === "flags" || key3 === "id" || key3 === "weight" || key3 === "covers")) {
              const err69 = { instancePath, schemaPath: "#/oneOf/3/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key3 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err69];
              } else {
                vErrors.push(err69);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("regex" !== data.type) {
              const err70 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/3/properties/type/const", keyword: "const", params: { allowedValue: "regex" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err70];
              } else {
                vErrors.push(err70);
              }
              errors++;
            }
          }
          if (data.pattern !== void 0) {
            let data21 = data.pattern;
            if (typeof data21 === "string") {
              if (func1(data21) > 1e3) {
                const err71 = { instancePath: instancePath + "/pattern", schemaPath: "#/oneOf/3/properties/pattern/maxLength", keyword: "maxLength", params: { limit: 1e3 }, message: "must NOT have more than 1000 characters" };
                if (vErrors === null) {
                  vErrors = [err71];
                } else {
                  vErrors.push(err71);
                }
                errors++;
              }
              if (func1(data21) < 1) {
                const err72 = { instancePath: instancePath + "/pattern", schemaPath: "#/oneOf/3/properties/pattern/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err72];
                } else {
                  vErrors.push(err72);
                }
                errors++;
              }
            } else {
              const err73 = { instancePath: instancePath + "/pattern", schemaPath: "#/oneOf/3/properties/pattern/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err73];
              } else {
                vErrors.push(err73);
              }
              errors++;
            }
          }
          if (data.flags !== void 0) {
            let data22 = data.flags;
            if (typeof data22 === "string") {
              if (!pattern9.test(data22)) {
                const err74 = { instancePath: instancePath + "/flags", schemaPath: "#/oneOf/3/properties/flags/pattern", keyword: "pattern", params: { pattern: "^[imsu]{0,4}$" }, message: 'must match pattern "^[imsu]{0,4}$"' };
                if (vErrors === null) {
                  vErrors = [err74];
                } else {
                  vErrors.push(err74);
                }
                errors++;
              }
            } else {
              const err75 = { instancePath: instancePath + "/flags", schemaPath: "#/oneOf/3/properties/flags/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err75];
              } else {
                vErrors.push(err75);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data23 = data.id;
            if (typeof data23 === "string") {
              if (!pattern5.test(data23)) {
                const err76 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err76];
                } else {
                  vErrors.push(err76);
                }
                errors++;
              }
            } else {
              const err77 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err77];
              } else {
                vErrors.push(err77);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data24 = data.weight;
            if (typeof data24 == "number" && isFinite(data24)) {
              if (data24 > 1e3 || isNaN(data24)) {
                const err78 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/3/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err78];
                } else {
                  vErrors.push(err78);
                }
                errors++;
              }
              if (data24 < 0 || isNaN(data24)) {
                const err79 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/3/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err79];
                } else {
                  vErrors.push(err79);
                }
                errors++;
              }
            } else {
              const err80 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/3/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err80];
              } else {
                vErrors.push(err80);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data25 = data.covers;
            if (Array.isArray(data25)) {
              if (data25.length > 64) {
                const err81 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/3/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err81];
                } else {
                  vErrors.push(err81);
                }
                errors++;
              }
              if (data25.length < 1) {
                const err82 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/3/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err82];
                } else {
                  vErrors.push(err82);
                }
                errors++;
              }
              const len3 = data25.length;
              for (let i3 = 0; i3 < len3; i3++) {
                let data26 = data25[i3];
                const _errs84 = errors;
                let valid25 = false;
                const _errs85 = errors;
                if (!(typeof data26 == "number" && (!(data26 % 1) && !isNaN(data26)) && isFinite(data26))) {
                  const err83 = { instancePath: instancePath + "/covers/" + i3, schemaPath: "#/oneOf/3/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err83];
                  } else {
                    vErrors.push(err83);
                  }
                  errors++;
                }
                if (typeof data26 == "number" && isFinite(data26)) {
                  if (data26 < 0 || isNaN(data26)) {
                    const err84 = { instancePath: instancePath + "/covers/" + i3, schemaPath: "#/oneOf/3/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err84];
                    } else {
                      vErrors.push(err84);
                    }
                    errors++;
                  }
                }
                var _valid3 = _errs85 === errors;
                valid25 = valid25 || _valid3;
                const _errs87 = errors;
                if (typeof data26 === "string") {
                  if (func1(data26) > 4e3) {
                    const err85 = { instancePath: instancePath + "/covers/" + i3, schemaPath: "#/oneOf/3/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err85];
                    } else {
                      vErrors.push(err85);
                    }
                    errors++;
                  }
                  if (func1(data26) < 1) {
                    const err86 = { instancePath: instancePath + "/covers/" + i3, schemaPath: "#/oneOf/3/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err86];
                    } else {
                      vErrors.push(err86);
                    }
                    errors++;
                  }
                } else {
                  const err87 = { instancePath: instancePath + "/covers/" + i3, schemaPath: "#/oneOf/3/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err87];
                  } else {
                    vErrors.push(err87);
                  }
                  errors++;
                }
                var _valid3 = _errs87 === errors;
                valid25 = valid25 || _valid3;
                if (!valid25) {
                  const err88 = { instancePath: instancePath + "/covers/" + i3, schemaPath: "#/oneOf/3/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err88];
                  } else {
                    vErrors.push(err88);
                  }
                  errors++;
                } else {
                  errors = _errs84;
                  if (vErrors !== null) {
                    if (_errs84) {
                      vErrors.length = _errs84;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err89 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/3/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err89];
              } else {
                vErrors.push(err89);
              }
              errors++;
            }
          }
        } else {
          const err90 = { instancePath, schemaPath: "#/oneOf/3/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err90];
          } else {
            vErrors.push(err90);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "json-schema") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err91 = { instancePath, schemaPath: "#/oneOf/4/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err91];
            } else {
              vErrors.push(err91);
            }
            errors++;
          }
          if (data.schema === void 0) {
            const err92 = { instancePath, schemaPath: "#/oneOf/4/required", keyword: "required", params: { missingProperty: "schema" }, message: "must have required property 'schema'" };
            if (vErrors === null) {
              vErrors = [err92];
            } else {
              vErrors.push(err92);
            }
            errors++;
          }
          for (const key4 in data) {
            if (!(key4 === "type" || key4 === "schema" || key4 === "id" || key4 === "weight" || key4 === "covers")) {
              const err93 = { instancePath, schemaPath: "#/oneOf/4/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key4 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err93];
              } else {
                vErrors.push(err93);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("json-schema" !== data.type) {
              const err94 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/4/properties/type/const", keyword: "const", params: { allowedValue: "json-schema" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err94];
              } else {
                vErrors.push(err94);
              }
              errors++;
            }
          }
          if (data.schema !== void 0) {
            let data28 = data.schema;
            if (!(data28 && typeof data28 == "object" && !Array.isArray(data28))) {
              const err95 = { instancePath: instancePath + "/schema", schemaPath: "#/oneOf/4/properties/schema/type", keyword: "type", params: { type: "object" }, message: "must be object" };
              if (vErrors === null) {
                vErrors = [err95];
              } else {
                vErrors.push(err95);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data29 = data.id;
            if (typeof data29 === "string") {
              if (!pattern5.test(data29)) {
                const err96 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err96];
                } else {
                  vErrors.push(err96);
                }
                errors++;
              }
            } else {
              const err97 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err97];
              } else {
                vErrors.push(err97);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data30 = data.weight;
            if (typeof data30 == "number" && isFinite(data30)) {
              if (data30 > 1e3 || isNaN(data30)) {
                const err98 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/4/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err98];
                } else {
                  vErrors.push(err98);
                }
                errors++;
              }
              if (data30 < 0 || isNaN(data30)) {
                const err99 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/4/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err99];
                } else {
                  vErrors.push(err99);
                }
                errors++;
              }
            } else {
              const err100 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/4/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err100];
              } else {
                vErrors.push(err100);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data31 = data.covers;
            if (Array.isArray(data31)) {
              if (data31.length > 64) {
                const err101 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/4/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err101];
                } else {
                  vErrors.push(err101);
                }
                errors++;
              }
              if (data31.length < 1) {
                const err102 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/4/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err102];
                } else {
                  vErrors.push(err102);
                }
                errors++;
              }
              const len4 = data31.length;
              for (let i4 = 0; i4 < len4; i4++) {
                let data32 = data31[i4];
                const _errs104 = errors;
                let valid31 = false;
                const _errs105 = errors;
                if (!(typeof data32 == "number" && (!(data32 % 1) && !isNaN(data32)) && isFinite(data32))) {
                  const err103 = { instancePath: instancePath + "/covers/" + i4, schemaPath: "#/oneOf/4/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err103];
                  } else {
                    vErrors.push(err103);
                  }
                  errors++;
                }
                if (typeof data32 == "number" && isFinite(data32)) {
                  if (data32 < 0 || isNaN(data32)) {
                    const err104 = { instancePath: instancePath + "/covers/" + i4, schemaPath: "#/oneOf/4/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err104];
                    } else {
                      vErrors.push(err104);
                    }
                    errors++;
                  }
                }
                var _valid4 = _errs105 === errors;
                valid31 = valid31 || _valid4;
                const _errs107 = errors;
                if (typeof data32 === "string") {
                  if (func1(data32) > 4e3) {
                    const err105 = { instancePath: instancePath + "/covers/" + i4, schemaPath: "#/oneOf/4/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err105];
                    } else {
                      vErrors.push(err105);
                    }
                    errors++;
                  }
                  if (func1(data32) < 1) {
                    const err106 = { instancePath: instancePath + "/covers/" + i4, schemaPath: "#/oneOf/4/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err106];
                    } else {
                      vErrors.push(err106);
                    }
                    errors++;
                  }
                } else {
                  const err107 = { instancePath: instancePath + "/covers/" + i4, schemaPath: "#/oneOf/4/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err107];
                  } else {
                    vErrors.push(err107);
                  }
                  errors++;
                }
                var _valid4 = _errs107 === errors;
                valid31 = valid31 || _valid4;
                if (!valid31) {
                  const err108 = { instancePath: instancePath + "/covers/" + i4, schemaPath: "#/oneOf/4/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err108];
                  } else {
                    vErrors.push(err108);
                  }
                  errors++;
                } else {
                  errors = _errs104;
                  if (vErrors !== null) {
                    if (_errs104) {
                      vErrors.length = _errs104;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err109 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/4/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err109];
              } else {
                vErrors.push(err109);
              }
              errors++;
            }
          }
        } else {
          const err110 = { instancePath, schemaPath: "#/oneOf/4/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err110];
          } else {
            vErrors.push(err110);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "max-length") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err111 = { instancePath, schemaPath: "#/oneOf/5/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err111];
            } else {
              vErrors.push(err111);
            }
            errors++;
          }
          if (data.chars === void 0) {
            const err112 = { instancePath, schemaPath: "#/oneOf/5/required", keyword: "required", params: { missingProperty: "chars" }, message: "must have required property 'chars'" };
            if (vErrors === null) {
              vErrors = [err112];
            } else {
              vErrors.push(err112);
            }
            errors++;
          }
          for (const key5 in data) {
            if (!(key5 === "type" || key5 === "chars" || key5 === "id" || key5 === "weight" || key5 === "covers")) {
              const err113 = { instancePath, schemaPath: "#/oneOf/5/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key5 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err113];
              } else {
                vErrors.push(err113);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("max-length" !== data.type) {
              const err114 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/5/properties/type/const", keyword: "const", params: { allowedValue: "max-length" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err114];
              } else {
                vErrors.push(err114);
              }
              errors++;
            }
          }
          if (data.chars !== void 0) {
            let data34 = data.chars;
            if (!(typeof data34 == "number" && (!(data34 % 1) && !isNaN(data34)) && isFinite(data34))) {
              const err115 = { instancePath: instancePath + "/chars", schemaPath: "#/oneOf/5/properties/chars/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err115];
              } else {
                vErrors.push(err115);
              }
              errors++;
            }
            if (typeof data34 == "number" && isFinite(data34)) {
              if (data34 < 0 || isNaN(data34)) {
                const err116 = { instancePath: instancePath + "/chars", schemaPath: "#/oneOf/5/properties/chars/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err116];
                } else {
                  vErrors.push(err116);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data35 = data.id;
            if (typeof data35 === "string") {
              if (!pattern5.test(data35)) {
                const err117 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err117];
                } else {
                  vErrors.push(err117);
                }
                errors++;
              }
            } else {
              const err118 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err118];
              } else {
                vErrors.push(err118);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data36 = data.weight;
            if (typeof data36 == "number" && isFinite(data36)) {
              if (data36 > 1e3 || isNaN(data36)) {
                const err119 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/5/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err119];
                } else {
                  vErrors.push(err119);
                }
                errors++;
              }
              if (data36 < 0 || isNaN(data36)) {
                const err120 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/5/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err120];
                } else {
                  vErrors.push(err120);
                }
                errors++;
              }
            } else {
              const err121 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/5/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err121];
              } else {
                vErrors.push(err121);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data37 = data.covers;
            if (Array.isArray(data37)) {
              if (data37.length > 64) {
                const err122 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/5/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err122];
                } else {
                  vErrors.push(err122);
                }
                errors++;
              }
              if (data37.length < 1) {
                const err123 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/5/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err123];
                } else {
                  vErrors.push(err123);
                }
                errors++;
              }
              const len5 = data37.length;
              for (let i5 = 0; i5 < len5; i5++) {
                let data38 = data37[i5];
                const _errs124 = errors;
                let valid37 = false;
                const _errs125 = errors;
                if (!(typeof data38 == "number" && (!(data38 % 1) && !isNaN(data38)) && isFinite(data38))) {
                  const err124 = { instancePath: instancePath + "/covers/" + i5, schemaPath: "#/oneOf/5/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err124];
                  } else {
                    vErrors.push(err124);
                  }
                  errors++;
                }
                if (typeof data38 == "number" && isFinite(data38)) {
                  if (data38 < 0 || isNaN(data38)) {
                    const err125 = { instancePath: instancePath + "/covers/" + i5, schemaPath: "#/oneOf/5/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err125];
                    } else {
                      vErrors.push(err125);
                    }
                    errors++;
                  }
                }
                var _valid5 = _errs125 === errors;
                valid37 = valid37 || _valid5;
                const _errs127 = errors;
                if (typeof data38 === "string") {
                  if (func1(data38) > 4e3) {
                    const err126 = { instancePath: instancePath + "/covers/" + i5, schemaPath: "#/oneOf/5/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err126];
                    } else {
                      vErrors.push(err126);
                    }
                    errors++;
                  }
                  if (func1(data38) < 1) {
                    const err127 = { instancePath: instancePath + "/covers/" + i5, schemaPath: "#/oneOf/5/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err127];
                    } else {
                      vErrors.push(err127);
                    }
                    errors++;
                  }
                } else {
                  const err128 = { instancePath: instancePath + "/covers/" + i5, schemaPath: "#/oneOf/5/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err128];
                  } else {
                    vErrors.push(err128);
                  }
                  errors++;
                }
                var _valid5 = _errs127 === errors;
                valid37 = valid37 || _valid5;
                if (!valid37) {
                  const err129 = { instancePath: instancePath + "/covers/" + i5, schemaPath: "#/oneOf/5/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err129];
                  } else {
                    vErrors.push(err129);
                  }
                  errors++;
                } else {
                  errors = _errs124;
                  if (vErrors !== null) {
                    if (_errs124) {
                      vErrors.length = _errs124;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err130 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/5/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err130];
              } else {
                vErrors.push(err130);
              }
              errors++;
            }
          }
        } else {
          const err131 = { instancePath, schemaPath: "#/oneOf/5/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err131];
          } else {
            vErrors.push(err131);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "max-latency") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err132 = { instancePath, schemaPath: "#/oneOf/6/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err132];
            } else {
              vErrors.push(err132);
            }
            errors++;
          }
          if (data.ms === void 0) {
            const err133 = { instancePath, schemaPath: "#/oneOf/6/required", keyword: "required", params: { missingProperty: "ms" }, message: "must have required property 'ms'" };
            if (vErrors === null) {
              vErrors = [err133];
            } else {
              vErrors.push(err133);
            }
            errors++;
          }
          for (const key6 in data) {
            if (!(key6 === "type" || key6 === "ms" || key6 === "id" || key6 === "weight" || key6 === "covers")) {
              const err134 = { instancePath, schemaPath: "#/oneOf/6/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key6 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err134];
              } else {
                vErrors.push(err134);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("max-latency" !== data.type) {
              const err135 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/6/properties/type/const", keyword: "const", params: { allowedValue: "max-latency" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err135];
              } else {
                vErrors.push(err135);
              }
              errors++;
            }
          }
          if (data.ms !== void 0) {
            let data40 = data.ms;
            if (!(typeof data40 == "number" && (!(data40 % 1) && !isNaN(data40)) && isFinite(data40))) {
              const err136 = { instancePath: instancePath + "/ms", schemaPath: "#/oneOf/6/properties/ms/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err136];
              } else {
                vErrors.push(err136);
              }
              errors++;
            }
            if (typeof data40 == "number" && isFinite(data40)) {
              if (data40 < 0 || isNaN(data40)) {
                const err137 = { instancePath: instancePath + "/ms", schemaPath: "#/oneOf/6/properties/ms/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err137];
                } else {
                  vErrors.push(err137);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data41 = data.id;
            if (typeof data41 === "string") {
              if (!pattern5.test(data41)) {
                const err138 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err138];
                } else {
                  vErrors.push(err138);
                }
                errors++;
              }
            } else {
              const err139 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err139];
              } else {
                vErrors.push(err139);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data42 = data.weight;
            if (typeof data42 == "number" && isFinite(data42)) {
              if (data42 > 1e3 || isNaN(data42)) {
                const err140 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/6/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err140];
                } else {
                  vErrors.push(err140);
                }
                errors++;
              }
              if (data42 < 0 || isNaN(data42)) {
                const err141 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/6/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err141];
                } else {
                  vErrors.push(err141);
                }
                errors++;
              }
            } else {
              const err142 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/6/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err142];
              } else {
                vErrors.push(err142);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data43 = data.covers;
            if (Array.isArray(data43)) {
              if (data43.length > 64) {
                const err143 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/6/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err143];
                } else {
                  vErrors.push(err143);
                }
                errors++;
              }
              if (data43.length < 1) {
                const err144 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/6/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err144];
                } else {
                  vErrors.push(err144);
                }
                errors++;
              }
              const len6 = data43.length;
              for (let i6 = 0; i6 < len6; i6++) {
                let data44 = data43[i6];
                const _errs144 = errors;
                let valid43 = false;
                const _errs145 = errors;
                if (!(typeof data44 == "number" && (!(data44 % 1) && !isNaN(data44)) && isFinite(data44))) {
                  const err145 = { instancePath: instancePath + "/covers/" + i6, schemaPath: "#/oneOf/6/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err145];
                  } else {
                    vErrors.push(err145);
                  }
                  errors++;
                }
                if (typeof data44 == "number" && isFinite(data44)) {
                  if (data44 < 0 || isNaN(data44)) {
                    const err146 = { instancePath: instancePath + "/covers/" + i6, schemaPath: "#/oneOf/6/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err146];
                    } else {
                      vErrors.push(err146);
                    }
                    errors++;
                  }
                }
                var _valid6 = _errs145 === errors;
                valid43 = valid43 || _valid6;
                const _errs147 = errors;
                if (typeof data44 === "string") {
                  if (func1(data44) > 4e3) {
                    const err147 = { instancePath: instancePath + "/covers/" + i6, schemaPath: "#/oneOf/6/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err147];
                    } else {
                      vErrors.push(err147);
                    }
                    errors++;
                  }
                  if (func1(data44) < 1) {
                    const err148 = { instancePath: instancePath + "/covers/" + i6, schemaPath: "#/oneOf/6/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err148];
                    } else {
                      vErrors.push(err148);
                    }
                    errors++;
                  }
                } else {
                  const err149 = { instancePath: instancePath + "/covers/" + i6, schemaPath: "#/oneOf/6/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err149];
                  } else {
                    vErrors.push(err149);
                  }
                  errors++;
                }
                var _valid6 = _errs147 === errors;
                valid43 = valid43 || _valid6;
                if (!valid43) {
                  const err150 = { instancePath: instancePath + "/covers/" + i6, schemaPath: "#/oneOf/6/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err150];
                  } else {
                    vErrors.push(err150);
                  }
                  errors++;
                } else {
                  errors = _errs144;
                  if (vErrors !== null) {
                    if (_errs144) {
                      vErrors.length = _errs144;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err151 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/6/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err151];
              } else {
                vErrors.push(err151);
              }
              errors++;
            }
          }
        } else {
          const err152 = { instancePath, schemaPath: "#/oneOf/6/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err152];
          } else {
            vErrors.push(err152);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "max-cost") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err153 = { instancePath, schemaPath: "#/oneOf/7/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err153];
            } else {
              vErrors.push(err153);
            }
            errors++;
          }
          for (const key7 in data) {
            if (!(key7 === "type" || key7 === "tokens" || key7 === "modelCalls" || key7 === "id" || key7 === "weight" || key7 === "covers")) {
              const err154 = { instancePath, schemaPath: "#/oneOf/7/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key7 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err154];
              } else {
                vErrors.push(err154);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("max-cost" !== data.type) {
              const err155 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/7/properties/type/const", keyword: "const", params: { allowedValue: "max-cost" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err155];
              } else {
                vErrors.push(err155);
              }
              errors++;
            }
          }
          if (data.tokens !== void 0) {
            let data46 = data.tokens;
            if (!(typeof data46 == "number" && (!(data46 % 1) && !isNaN(data46)) && isFinite(data46))) {
              const err156 = { instancePath: instancePath + "/tokens", schemaPath: "#/oneOf/7/properties/tokens/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err156];
              } else {
                vErrors.push(err156);
              }
              errors++;
            }
            if (typeof data46 == "number" && isFinite(data46)) {
              if (data46 < 0 || isNaN(data46)) {
                const err157 = { instancePath: instancePath + "/tokens", schemaPath: "#/oneOf/7/properties/tokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err157];
                } else {
                  vErrors.push(err157);
                }
                errors++;
              }
            }
          }
          if (data.modelCalls !== void 0) {
            let data47 = data.modelCalls;
            if (!(typeof data47 == "number" && (!(data47 % 1) && !isNaN(data47)) && isFinite(data47))) {
              const err158 = { instancePath: instancePath + "/modelCalls", schemaPath: "#/oneOf/7/properties/modelCalls/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err158];
              } else {
                vErrors.push(err158);
              }
              errors++;
            }
            if (typeof data47 == "number" && isFinite(data47)) {
              if (data47 < 0 || isNaN(data47)) {
                const err159 = { instancePath: instancePath + "/modelCalls", schemaPath: "#/oneOf/7/properties/modelCalls/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err159];
                } else {
                  vErrors.push(err159);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data48 = data.id;
            if (typeof data48 === "string") {
              if (!pattern5.test(data48)) {
                const err160 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err160];
                } else {
                  vErrors.push(err160);
                }
                errors++;
              }
            } else {
              const err161 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err161];
              } else {
                vErrors.push(err161);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data49 = data.weight;
            if (typeof data49 == "number" && isFinite(data49)) {
              if (data49 > 1e3 || isNaN(data49)) {
                const err162 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/7/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err162];
                } else {
                  vErrors.push(err162);
                }
                errors++;
              }
              if (data49 < 0 || isNaN(data49)) {
                const err163 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/7/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err163];
                } else {
                  vErrors.push(err163);
                }
                errors++;
              }
            } else {
              const err164 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/7/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err164];
              } else {
                vErrors.push(err164);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data50 = data.covers;
            if (Array.isArray(data50)) {
              if (data50.length > 64) {
                const err165 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/7/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err165];
                } else {
                  vErrors.push(err165);
                }
                errors++;
              }
              if (data50.length < 1) {
                const err166 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/7/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err166];
                } else {
                  vErrors.push(err166);
                }
                errors++;
              }
              const len7 = data50.length;
              for (let i7 = 0; i7 < len7; i7++) {
                let data51 = data50[i7];
                const _errs166 = errors;
                let valid49 = false;
                const _errs167 = errors;
                if (!(typeof data51 == "number" && (!(data51 % 1) && !isNaN(data51)) && isFinite(data51))) {
                  const err167 = { instancePath: instancePath + "/covers/" + i7, schemaPath: "#/oneOf/7/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err167];
                  } else {
                    vErrors.push(err167);
                  }
                  errors++;
                }
                if (typeof data51 == "number" && isFinite(data51)) {
                  if (data51 < 0 || isNaN(data51)) {
                    const err168 = { instancePath: instancePath + "/covers/" + i7, schemaPath: "#/oneOf/7/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err168];
                    } else {
                      vErrors.push(err168);
                    }
                    errors++;
                  }
                }
                var _valid7 = _errs167 === errors;
                valid49 = valid49 || _valid7;
                const _errs169 = errors;
                if (typeof data51 === "string") {
                  if (func1(data51) > 4e3) {
                    const err169 = { instancePath: instancePath + "/covers/" + i7, schemaPath: "#/oneOf/7/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err169];
                    } else {
                      vErrors.push(err169);
                    }
                    errors++;
                  }
                  if (func1(data51) < 1) {
                    const err170 = { instancePath: instancePath + "/covers/" + i7, schemaPath: "#/oneOf/7/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err170];
                    } else {
                      vErrors.push(err170);
                    }
                    errors++;
                  }
                } else {
                  const err171 = { instancePath: instancePath + "/covers/" + i7, schemaPath: "#/oneOf/7/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err171];
                  } else {
                    vErrors.push(err171);
                  }
                  errors++;
                }
                var _valid7 = _errs169 === errors;
                valid49 = valid49 || _valid7;
                if (!valid49) {
                  const err172 = { instancePath: instancePath + "/covers/" + i7, schemaPath: "#/oneOf/7/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err172];
                  } else {
                    vErrors.push(err172);
                  }
                  errors++;
                } else {
                  errors = _errs166;
                  if (vErrors !== null) {
                    if (_errs166) {
                      vErrors.length = _errs166;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err173 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/7/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err173];
              } else {
                vErrors.push(err173);
              }
              errors++;
            }
          }
        } else {
          const err174 = { instancePath, schemaPath: "#/oneOf/7/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err174];
          } else {
            vErrors.push(err174);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "tool-called") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err175 = { instancePath, schemaPath: "#/oneOf/8/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err175];
            } else {
              vErrors.push(err175);
            }
            errors++;
          }
          if (data.tool === void 0) {
            const err176 = { instancePath, schemaPath: "#/oneOf/8/required", keyword: "required", params: { missingProperty: "tool" }, message: "must have required property 'tool'" };
            if (vErrors === null) {
              vErrors = [err176];
            } else {
              vErrors.push(err176);
            }
            errors++;
          }
          for (const key8 in data) {
            if (!(key8 === "type" || key8 === "tool" || key8 === "times" || key8 === "id" || key8 === "weight" || key8 === "covers")) {
              const err177 = { instancePath, schemaPath: "#/oneOf/8/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key8 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err177];
              } else {
                vErrors.push(err177);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("tool-called" !== data.type) {
              const err178 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/8/properties/type/const", keyword: "const", params: { allowedValue: "tool-called" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err178];
              } else {
                vErrors.push(err178);
              }
              errors++;
            }
          }
          if (data.tool !== void 0) {
            let data53 = data.tool;
            if (typeof data53 === "string") {
              if (func1(data53) > 256) {
                const err179 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/8/properties/tool/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err179];
                } else {
                  vErrors.push(err179);
                }
                errors++;
              }
              if (func1(data53) < 1) {
                const err180 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/8/properties/tool/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err180];
                } else {
                  vErrors.push(err180);
                }
                errors++;
              }
            } else {
              const err181 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/8/properties/tool/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err181];
              } else {
                vErrors.push(err181);
              }
              errors++;
            }
          }
          if (data.times !== void 0) {
            let data54 = data.times;
            if (!(typeof data54 == "number" && (!(data54 % 1) && !isNaN(data54)) && isFinite(data54))) {
              const err182 = { instancePath: instancePath + "/times", schemaPath: "#/oneOf/8/properties/times/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err182];
              } else {
                vErrors.push(err182);
              }
              errors++;
            }
            if (typeof data54 == "number" && isFinite(data54)) {
              if (data54 < 1 || isNaN(data54)) {
                const err183 = { instancePath: instancePath + "/times", schemaPath: "#/oneOf/8/properties/times/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
                if (vErrors === null) {
                  vErrors = [err183];
                } else {
                  vErrors.push(err183);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data55 = data.id;
            if (typeof data55 === "string") {
              if (!pattern5.test(data55)) {
                const err184 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err184];
                } else {
                  vErrors.push(err184);
                }
                errors++;
              }
            } else {
              const err185 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err185];
              } else {
                vErrors.push(err185);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data56 = data.weight;
            if (typeof data56 == "number" && isFinite(data56)) {
              if (data56 > 1e3 || isNaN(data56)) {
                const err186 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/8/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err186];
                } else {
                  vErrors.push(err186);
                }
                errors++;
              }
              if (data56 < 0 || isNaN(data56)) {
                const err187 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/8/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err187];
                } else {
                  vErrors.push(err187);
                }
                errors++;
              }
            } else {
              const err188 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/8/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err188];
              } else {
                vErrors.push(err188);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data57 = data.covers;
            if (Array.isArray(data57)) {
              if (data57.length > 64) {
                const err189 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/8/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err189];
                } else {
                  vErrors.push(err189);
                }
                errors++;
              }
              if (data57.length < 1) {
                const err190 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/8/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err190];
                } else {
                  vErrors.push(err190);
                }
                errors++;
              }
              const len8 = data57.length;
              for (let i8 = 0; i8 < len8; i8++) {
                let data58 = data57[i8];
                const _errs188 = errors;
                let valid55 = false;
                const _errs189 = errors;
                if (!(typeof data58 == "number" && (!(data58 % 1) && !isNaN(data58)) && isFinite(data58))) {
                  const err191 = { instancePath: instancePath + "/covers/" + i8, schemaPath: "#/oneOf/8/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err191];
                  } else {
                    vErrors.push(err191);
                  }
                  errors++;
                }
                if (typeof data58 == "number" && isFinite(data58)) {
                  if (data58 < 0 || isNaN(data58)) {
                    const err192 = { instancePath: instancePath + "/covers/" + i8, schemaPath: "#/oneOf/8/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err192];
                    } else {
                      vErrors.push(err192);
                    }
                    errors++;
                  }
                }
                var _valid8 = _errs189 === errors;
                valid55 = valid55 || _valid8;
                const _errs191 = errors;
                if (typeof data58 === "string") {
                  if (func1(data58) > 4e3) {
                    const err193 = { instancePath: instancePath + "/covers/" + i8, schemaPath: "#/oneOf/8/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err193];
                    } else {
                      vErrors.push(err193);
                    }
                    errors++;
                  }
                  if (func1(data58) < 1) {
                    const err194 = { instancePath: instancePath + "/covers/" + i8, schemaPath: "#/oneOf/8/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err194];
                    } else {
                      vErrors.push(err194);
                    }
                    errors++;
                  }
                } else {
                  const err195 = { instancePath: instancePath + "/covers/" + i8, schemaPath: "#/oneOf/8/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err195];
                  } else {
                    vErrors.push(err195);
                  }
                  errors++;
                }
                var _valid8 = _errs191 === errors;
                valid55 = valid55 || _valid8;
                if (!valid55) {
                  const err196 = { instancePath: instancePath + "/covers/" + i8, schemaPath: "#/oneOf/8/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err196];
                  } else {
                    vErrors.push(err196);
                  }
                  errors++;
                } else {
                  errors = _errs188;
                  if (vErrors !== null) {
                    if (_errs188) {
                      vErrors.length = _errs188;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err197 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/8/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err197];
              } else {
                vErrors.push(err197);
              }
              errors++;
            }
          }
        } else {
          const err198 = { instancePath, schemaPath: "#/oneOf/8/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err198];
          } else {
            vErrors.push(err198);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "tool-not-called") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err199 = { instancePath, schemaPath: "#/oneOf/9/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err199];
            } else {
              vErrors.push(err199);
            }
            errors++;
          }
          if (data.tool === void 0) {
            const err200 = { instancePath, schemaPath: "#/oneOf/9/required", keyword: "required", params: { missingProperty: "tool" }, message: "must have required property 'tool'" };
            if (vErrors === null) {
              vErrors = [err200];
            } else {
              vErrors.push(err200);
            }
            errors++;
          }
          for (const key9 in data) {
            if (!(key9 === "type" || key9 === "tool" || key9 === "id" || key9 === "weight" || key9 === "covers")) {
              const err201 = { instancePath, schemaPath: "#/oneOf/9/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key9 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err201];
              } else {
                vErrors.push(err201);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("tool-not-called" !== data.type) {
              const err202 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/9/properties/type/const", keyword: "const", params: { allowedValue: "tool-not-called" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err202];
              } else {
                vErrors.push(err202);
              }
              errors++;
            }
          }
          if (data.tool !== void 0) {
            let data60 = data.tool;
            if (typeof data60 === "string") {
              if (func1(data60) > 256) {
                const err203 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/9/properties/tool/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err203];
                } else {
                  vErrors.push(err203);
                }
                errors++;
              }
              if (func1(data60) < 1) {
                const err204 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/9/properties/tool/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err204];
                } else {
                  vErrors.push(err204);
                }
                errors++;
              }
            } else {
              const err205 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/9/properties/tool/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err205];
              } else {
                vErrors.push(err205);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data61 = data.id;
            if (typeof data61 === "string") {
              if (!pattern5.test(data61)) {
                const err206 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err206];
                } else {
                  vErrors.push(err206);
                }
                errors++;
              }
            } else {
              const err207 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err207];
              } else {
                vErrors.push(err207);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data62 = data.weight;
            if (typeof data62 == "number" && isFinite(data62)) {
              if (data62 > 1e3 || isNaN(data62)) {
                const err208 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/9/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err208];
                } else {
                  vErrors.push(err208);
                }
                errors++;
              }
              if (data62 < 0 || isNaN(data62)) {
                const err209 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/9/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err209];
                } else {
                  vErrors.push(err209);
                }
                errors++;
              }
            } else {
              const err210 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/9/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err210];
              } else {
                vErrors.push(err210);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data63 = data.covers;
            if (Array.isArray(data63)) {
              if (data63.length > 64) {
                const err211 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/9/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err211];
                } else {
                  vErrors.push(err211);
                }
                errors++;
              }
              if (data63.length < 1) {
                const err212 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/9/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err212];
                } else {
                  vErrors.push(err212);
                }
                errors++;
              }
              const len9 = data63.length;
              for (let i9 = 0; i9 < len9; i9++) {
                let data64 = data63[i9];
                const _errs208 = errors;
                let valid61 = false;
                const _errs209 = errors;
                if (!(typeof data64 == "number" && (!(data64 % 1) && !isNaN(data64)) && isFinite(data64))) {
                  const err213 = { instancePath: instancePath + "/covers/" + i9, schemaPath: "#/oneOf/9/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err213];
                  } else {
                    vErrors.push(err213);
                  }
                  errors++;
                }
                if (typeof data64 == "number" && isFinite(data64)) {
                  if (data64 < 0 || isNaN(data64)) {
                    const err214 = { instancePath: instancePath + "/covers/" + i9, schemaPath: "#/oneOf/9/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err214];
                    } else {
                      vErrors.push(err214);
                    }
                    errors++;
                  }
                }
                var _valid9 = _errs209 === errors;
                valid61 = valid61 || _valid9;
                const _errs211 = errors;
                if (typeof data64 === "string") {
                  if (func1(data64) > 4e3) {
                    const err215 = { instancePath: instancePath + "/covers/" + i9, schemaPath: "#/oneOf/9/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err215];
                    } else {
                      vErrors.push(err215);
                    }
                    errors++;
                  }
                  if (func1(data64) < 1) {
                    const err216 = { instancePath: instancePath + "/covers/" + i9, schemaPath: "#/oneOf/9/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err216];
                    } else {
                      vErrors.push(err216);
                    }
                    errors++;
                  }
                } else {
                  const err217 = { instancePath: instancePath + "/covers/" + i9, schemaPath: "#/oneOf/9/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err217];
                  } else {
                    vErrors.push(err217);
                  }
                  errors++;
                }
                var _valid9 = _errs211 === errors;
                valid61 = valid61 || _valid9;
                if (!valid61) {
                  const err218 = { instancePath: instancePath + "/covers/" + i9, schemaPath: "#/oneOf/9/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err218];
                  } else {
                    vErrors.push(err218);
                  }
                  errors++;
                } else {
                  errors = _errs208;
                  if (vErrors !== null) {
                    if (_errs208) {
                      vErrors.length = _errs208;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err219 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/9/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err219];
              } else {
                vErrors.push(err219);
              }
              errors++;
            }
          }
        } else {
          const err220 = { instancePath, schemaPath: "#/oneOf/9/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err220];
          } else {
            vErrors.push(err220);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "no-egress-outside-allowlist") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err221 = { instancePath, schemaPath: "#/oneOf/10/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err221];
            } else {
              vErrors.push(err221);
            }
            errors++;
          }
          for (const key10 in data) {
            if (!(key10 === "type" || key10 === "id" || key10 === "weight" || key10 === "covers")) {
              const err222 = { instancePath, schemaPath: "#/oneOf/10/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key10 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err222];
              } else {
                vErrors.push(err222);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("no-egress-outside-allowlist" !== data.type) {
              const err223 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/10/properties/type/const", keyword: "const", params: { allowedValue: "no-egress-outside-allowlist" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err223];
              } else {
                vErrors.push(err223);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data66 = data.id;
            if (typeof data66 === "string") {
              if (!pattern5.test(data66)) {
                const err224 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err224];
                } else {
                  vErrors.push(err224);
                }
                errors++;
              }
            } else {
              const err225 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err225];
              } else {
                vErrors.push(err225);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data67 = data.weight;
            if (typeof data67 == "number" && isFinite(data67)) {
              if (data67 > 1e3 || isNaN(data67)) {
                const err226 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/10/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err226];
                } else {
                  vErrors.push(err226);
                }
                errors++;
              }
              if (data67 < 0 || isNaN(data67)) {
                const err227 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/10/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err227];
                } else {
                  vErrors.push(err227);
                }
                errors++;
              }
            } else {
              const err228 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/10/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err228];
              } else {
                vErrors.push(err228);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data68 = data.covers;
            if (Array.isArray(data68)) {
              if (data68.length > 64) {
                const err229 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/10/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err229];
                } else {
                  vErrors.push(err229);
                }
                errors++;
              }
              if (data68.length < 1) {
                const err230 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/10/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err230];
                } else {
                  vErrors.push(err230);
                }
                errors++;
              }
              const len10 = data68.length;
              for (let i10 = 0; i10 < len10; i10++) {
                let data69 = data68[i10];
                const _errs226 = errors;
                let valid67 = false;
                const _errs227 = errors;
                if (!(typeof data69 == "number" && (!(data69 % 1) && !isNaN(data69)) && isFinite(data69))) {
                  const err231 = { instancePath: instancePath + "/covers/" + i10, schemaPath: "#/oneOf/10/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err231];
                  } else {
                    vErrors.push(err231);
                  }
                  errors++;
                }
                if (typeof data69 == "number" && isFinite(data69)) {
                  if (data69 < 0 || isNaN(data69)) {
                    const err232 = { instancePath: instancePath + "/covers/" + i10, schemaPath: "#/oneOf/10/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err232];
                    } else {
                      vErrors.push(err232);
                    }
                    errors++;
                  }
                }
                var _valid10 = _errs227 === errors;
                valid67 = valid67 || _valid10;
                const _errs229 = errors;
                if (typeof data69 === "string") {
                  if (func1(data69) > 4e3) {
                    const err233 = { instancePath: instancePath + "/covers/" + i10, schemaPath: "#/oneOf/10/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err233];
                    } else {
                      vErrors.push(err233);
                    }
                    errors++;
                  }
                  if (func1(data69) < 1) {
                    const err234 = { instancePath: instancePath + "/covers/" + i10, schemaPath: "#/oneOf/10/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err234];
                    } else {
                      vErrors.push(err234);
                    }
                    errors++;
                  }
                } else {
                  const err235 = { instancePath: instancePath + "/covers/" + i10, schemaPath: "#/oneOf/10/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err235];
                  } else {
                    vErrors.push(err235);
                  }
                  errors++;
                }
                var _valid10 = _errs229 === errors;
                valid67 = valid67 || _valid10;
                if (!valid67) {
                  const err236 = { instancePath: instancePath + "/covers/" + i10, schemaPath: "#/oneOf/10/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err236];
                  } else {
                    vErrors.push(err236);
                  }
                  errors++;
                } else {
                  errors = _errs226;
                  if (vErrors !== null) {
                    if (_errs226) {
                      vErrors.length = _errs226;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err237 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/10/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err237];
              } else {
                vErrors.push(err237);
              }
              errors++;
            }
          }
        } else {
          const err238 = { instancePath, schemaPath: "#/oneOf/10/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err238];
          } else {
            vErrors.push(err238);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "invariant") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err239 = { instancePath, schemaPath: "#/oneOf/11/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err239];
            } else {
              vErrors.push(err239);
            }
            errors++;
          }
          if (data.invariant === void 0) {
            const err240 = { instancePath, schemaPath: "#/oneOf/11/required", keyword: "required", params: { missingProperty: "invariant" }, message: "must have required property 'invariant'" };
            if (vErrors === null) {
              vErrors = [err240];
            } else {
              vErrors.push(err240);
            }
            errors++;
          }
          for (const key11 in data) {
            if (!(key11 === "type" || key11 === "invariant" || key11 === "threshold" || key11 === "grader" || key11 === "id" || key11 === "weight" || key11 === "covers")) {
              const err241 = { instancePath, schemaPath: "#/oneOf/11/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key11 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err241];
              } else {
                vErrors.push(err241);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("invariant" !== data.type) {
              const err242 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/11/properties/type/const", keyword: "const", params: { allowedValue: "invariant" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err242];
              } else {
                vErrors.push(err242);
              }
              errors++;
            }
          }
          if (data.invariant !== void 0) {
            let data71 = data.invariant;
            const _errs236 = errors;
            let valid70 = false;
            const _errs237 = errors;
            if (!(typeof data71 == "number" && (!(data71 % 1) && !isNaN(data71)) && isFinite(data71))) {
              const err243 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err243];
              } else {
                vErrors.push(err243);
              }
              errors++;
            }
            if (typeof data71 == "number" && isFinite(data71)) {
              if (data71 < 0 || isNaN(data71)) {
                const err244 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err244];
                } else {
                  vErrors.push(err244);
                }
                errors++;
              }
            }
            var _valid11 = _errs237 === errors;
            valid70 = valid70 || _valid11;
            const _errs239 = errors;
            if (typeof data71 === "string") {
              if (func1(data71) > 4e3) {
                const err245 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                if (vErrors === null) {
                  vErrors = [err245];
                } else {
                  vErrors.push(err245);
                }
                errors++;
              }
              if (func1(data71) < 1) {
                const err246 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err246];
                } else {
                  vErrors.push(err246);
                }
                errors++;
              }
            } else {
              const err247 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err247];
              } else {
                vErrors.push(err247);
              }
              errors++;
            }
            var _valid11 = _errs239 === errors;
            valid70 = valid70 || _valid11;
            if (!valid70) {
              const err248 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
              if (vErrors === null) {
                vErrors = [err248];
              } else {
                vErrors.push(err248);
              }
              errors++;
            } else {
              errors = _errs236;
              if (vErrors !== null) {
                if (_errs236) {
                  vErrors.length = _errs236;
                } else {
                  vErrors = null;
                }
              }
            }
          }
          if (data.threshold !== void 0) {
            let data72 = data.threshold;
            if (typeof data72 == "number" && isFinite(data72)) {
              if (data72 > 1 || isNaN(data72)) {
                const err249 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/11/properties/threshold/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
                if (vErrors === null) {
                  vErrors = [err249];
                } else {
                  vErrors.push(err249);
                }
                errors++;
              }
              if (data72 < 0 || isNaN(data72)) {
                const err250 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/11/properties/threshold/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err250];
                } else {
                  vErrors.push(err250);
                }
                errors++;
              }
            } else {
              const err251 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/11/properties/threshold/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err251];
              } else {
                vErrors.push(err251);
              }
              errors++;
            }
          }
          if (data.grader !== void 0) {
            let data73 = data.grader;
            if (typeof data73 === "string") {
              if (func1(data73) > 256) {
                const err252 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err252];
                } else {
                  vErrors.push(err252);
                }
                errors++;
              }
              if (func1(data73) < 1) {
                const err253 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err253];
                } else {
                  vErrors.push(err253);
                }
                errors++;
              }
            } else {
              const err254 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err254];
              } else {
                vErrors.push(err254);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data74 = data.id;
            if (typeof data74 === "string") {
              if (!pattern5.test(data74)) {
                const err255 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err255];
                } else {
                  vErrors.push(err255);
                }
                errors++;
              }
            } else {
              const err256 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err256];
              } else {
                vErrors.push(err256);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data75 = data.weight;
            if (typeof data75 == "number" && isFinite(data75)) {
              if (data75 > 1e3 || isNaN(data75)) {
                const err257 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/11/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err257];
                } else {
                  vErrors.push(err257);
                }
                errors++;
              }
              if (data75 < 0 || isNaN(data75)) {
                const err258 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/11/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err258];
                } else {
                  vErrors.push(err258);
                }
                errors++;
              }
            } else {
              const err259 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/11/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err259];
              } else {
                vErrors.push(err259);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data76 = data.covers;
            if (Array.isArray(data76)) {
              if (data76.length > 64) {
                const err260 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/11/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err260];
                } else {
                  vErrors.push(err260);
                }
                errors++;
              }
              if (data76.length < 1) {
                const err261 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/11/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err261];
                } else {
                  vErrors.push(err261);
                }
                errors++;
              }
              const len11 = data76.length;
              for (let i11 = 0; i11 < len11; i11++) {
                let data77 = data76[i11];
                const _errs255 = errors;
                let valid75 = false;
                const _errs256 = errors;
                if (!(typeof data77 == "number" && (!(data77 % 1) && !isNaN(data77)) && isFinite(data77))) {
                  const err262 = { instancePath: instancePath + "/covers/" + i11, schemaPath: "#/oneOf/11/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err262];
                  } else {
                    vErrors.push(err262);
                  }
                  errors++;
                }
                if (typeof data77 == "number" && isFinite(data77)) {
                  if (data77 < 0 || isNaN(data77)) {
                    const err263 = { instancePath: instancePath + "/covers/" + i11, schemaPath: "#/oneOf/11/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err263];
                    } else {
                      vErrors.push(err263);
                    }
                    errors++;
                  }
                }
                var _valid12 = _errs256 === errors;
                valid75 = valid75 || _valid12;
                const _errs258 = errors;
                if (typeof data77 === "string") {
                  if (func1(data77) > 4e3) {
                    const err264 = { instancePath: instancePath + "/covers/" + i11, schemaPath: "#/oneOf/11/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err264];
                    } else {
                      vErrors.push(err264);
                    }
                    errors++;
                  }
                  if (func1(data77) < 1) {
                    const err265 = { instancePath: instancePath + "/covers/" + i11, schemaPath: "#/oneOf/11/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err265];
                    } else {
                      vErrors.push(err265);
                    }
                    errors++;
                  }
                } else {
                  const err266 = { instancePath: instancePath + "/covers/" + i11, schemaPath: "#/oneOf/11/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err266];
                  } else {
                    vErrors.push(err266);
                  }
                  errors++;
                }
                var _valid12 = _errs258 === errors;
                valid75 = valid75 || _valid12;
                if (!valid75) {
                  const err267 = { instancePath: instancePath + "/covers/" + i11, schemaPath: "#/oneOf/11/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err267];
                  } else {
                    vErrors.push(err267);
                  }
                  errors++;
                } else {
                  errors = _errs255;
                  if (vErrors !== null) {
                    if (_errs255) {
                      vErrors.length = _errs255;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err268 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/11/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err268];
              } else {
                vErrors.push(err268);
              }
              errors++;
            }
          }
        } else {
          const err269 = { instancePath, schemaPath: "#/oneOf/11/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err269];
          } else {
            vErrors.push(err269);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "rubric") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err270 = { instancePath, schemaPath: "#/oneOf/12/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err270];
            } else {
              vErrors.push(err270);
            }
            errors++;
          }
          if (data.rubric === void 0) {
            const err271 = { instancePath, schemaPath: "#/oneOf/12/required", keyword: "required", params: { missingProperty: "rubric" }, message: "must have required property 'rubric'" };
            if (vErrors === null) {
              vErrors = [err271];
            } else {
              vErrors.push(err271);
            }
            errors++;
          }
          for (const key12 in data) {
            if (!(key12 === "type" || key12 === "rubric" || key12 === "threshold" || key12 === "grader" || key12 === "id" || key12 === "weight" || key12 === "covers")) {
              const err272 = { instancePath, schemaPath: "#/oneOf/12/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key12 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err272];
              } else {
                vErrors.push(err272);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("rubric" !== data.type) {
              const err273 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/12/properties/type/const", keyword: "const", params: { allowedValue: "rubric" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err273];
              } else {
                vErrors.push(err273);
              }
              errors++;
            }
          }
          if (data.rubric !== void 0) {
            let data79 = data.rubric;
            const _errs265 = errors;
            let valid78 = false;
            const _errs266 = errors;
            if (typeof data79 === "string") {
              if (func1(data79) > 4e3) {
                const err274 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/0/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                if (vErrors === null) {
                  vErrors = [err274];
                } else {
                  vErrors.push(err274);
                }
                errors++;
              }
              if (func1(data79) < 1) {
                const err275 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/0/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err275];
                } else {
                  vErrors.push(err275);
                }
                errors++;
              }
            } else {
              const err276 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/0/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err276];
              } else {
                vErrors.push(err276);
              }
              errors++;
            }
            var _valid13 = _errs266 === errors;
            valid78 = valid78 || _valid13;
            const _errs268 = errors;
            if (Array.isArray(data79)) {
              if (data79.length > 32) {
                const err277 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/maxItems", keyword: "maxItems", params: { limit: 32 }, message: "must NOT have more than 32 items" };
                if (vErrors === null) {
                  vErrors = [err277];
                } else {
                  vErrors.push(err277);
                }
                errors++;
              }
              if (data79.length < 1) {
                const err278 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err278];
                } else {
                  vErrors.push(err278);
                }
                errors++;
              }
              const len12 = data79.length;
              for (let i12 = 0; i12 < len12; i12++) {
                let data80 = data79[i12];
                if (typeof data80 === "string") {
                  if (func1(data80) > 4e3) {
                    const err279 = { instancePath: instancePath + "/rubric/" + i12, schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/items/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err279];
                    } else {
                      vErrors.push(err279);
                    }
                    errors++;
                  }
                  if (func1(data80) < 1) {
                    const err280 = { instancePath: instancePath + "/rubric/" + i12, schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err280];
                    } else {
                      vErrors.push(err280);
                    }
                    errors++;
                  }
                } else {
                  const err281 = { instancePath: instancePath + "/rubric/" + i12, schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err281];
                  } else {
                    vErrors.push(err281);
                  }
                  errors++;
                }
              }
            } else {
              const err282 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err282];
              } else {
                vErrors.push(err282);
              }
              errors++;
            }
            var _valid13 = _errs268 === errors;
            valid78 = valid78 || _valid13;
            if (!valid78) {
              const err283 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
              if (vErrors === null) {
                vErrors = [err283];
              } else {
                vErrors.push(err283);
              }
              errors++;
            } else {
              errors = _errs265;
              if (vErrors !== null) {
                if (_errs265) {
                  vErrors.length = _errs265;
                } else {
                  vErrors = null;
                }
              }
            }
          }
          if (data.threshold !== void 0) {
            let data81 = data.threshold;
            if (typeof data81 == "number" && isFinite(data81)) {
              if (data81 > 1 || isNaN(data81)) {
                const err284 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/12/properties/threshold/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
                if (vErrors === null) {
                  vErrors = [err284];
                } else {
                  vErrors.push(err284);
                }
                errors++;
              }
              if (data81 < 0 || isNaN(data81)) {
                const err285 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/12/properties/threshold/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err285];
                } else {
                  vErrors.push(err285);
                }
                errors++;
              }
            } else {
              const err286 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/12/properties/threshold/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err286];
              } else {
                vErrors.push(err286);
              }
              errors++;
            }
          }
          if (data.grader !== void 0) {
            let data82 = data.grader;
            if (typeof data82 === "string") {
              if (func1(data82) > 256) {
                const err287 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err287];
                } else {
                  vErrors.push(err287);
                }
                errors++;
              }
              if (func1(data82) < 1) {
                const err288 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err288];
                } else {
                  vErrors.push(err288);
                }
                errors++;
              }
            } else {
              const err289 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err289];
              } else {
                vErrors.push(err289);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data83 = data.id;
            if (typeof data83 === "string") {
              if (!pattern5.test(data83)) {
                const err290 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err290];
                } else {
                  vErrors.push(err290);
                }
                errors++;
              }
            } else {
              const err291 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err291];
              } else {
                vErrors.push(err291);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data84 = data.weight;
            if (typeof data84 == "number" && isFinite(data84)) {
              if (data84 > 1e3 || isNaN(data84)) {
                const err292 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/12/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err292];
                } else {
                  vErrors.push(err292);
                }
                errors++;
              }
              if (data84 < 0 || isNaN(data84)) {
                const err293 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/12/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err293];
                } else {
                  vErrors.push(err293);
                }
                errors++;
              }
            } else {
              const err294 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/12/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err294];
              } else {
                vErrors.push(err294);
              }
              errors++;
            }
          }
          if (data.covers !== void 0) {
            let data85 = data.covers;
            if (Array.isArray(data85)) {
              if (data85.length > 64) {
                const err295 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/12/properties/covers/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
                if (vErrors === null) {
                  vErrors = [err295];
                } else {
                  vErrors.push(err295);
                }
                errors++;
              }
              if (data85.length < 1) {
                const err296 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/12/properties/covers/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err296];
                } else {
                  vErrors.push(err296);
                }
                errors++;
              }
              const len13 = data85.length;
              for (let i13 = 0; i13 < len13; i13++) {
                let data86 = data85[i13];
                const _errs286 = errors;
                let valid85 = false;
                const _errs287 = errors;
                if (!(typeof data86 == "number" && (!(data86 % 1) && !isNaN(data86)) && isFinite(data86))) {
                  const err297 = { instancePath: instancePath + "/covers/" + i13, schemaPath: "#/oneOf/12/properties/covers/items/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                  if (vErrors === null) {
                    vErrors = [err297];
                  } else {
                    vErrors.push(err297);
                  }
                  errors++;
                }
                if (typeof data86 == "number" && isFinite(data86)) {
                  if (data86 < 0 || isNaN(data86)) {
                    const err298 = { instancePath: instancePath + "/covers/" + i13, schemaPath: "#/oneOf/12/properties/covers/items/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                    if (vErrors === null) {
                      vErrors = [err298];
                    } else {
                      vErrors.push(err298);
                    }
                    errors++;
                  }
                }
                var _valid14 = _errs287 === errors;
                valid85 = valid85 || _valid14;
                const _errs289 = errors;
                if (typeof data86 === "string") {
                  if (func1(data86) > 4e3) {
                    const err299 = { instancePath: instancePath + "/covers/" + i13, schemaPath: "#/oneOf/12/properties/covers/items/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err299];
                    } else {
                      vErrors.push(err299);
                    }
                    errors++;
                  }
                  if (func1(data86) < 1) {
                    const err300 = { instancePath: instancePath + "/covers/" + i13, schemaPath: "#/oneOf/12/properties/covers/items/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err300];
                    } else {
                      vErrors.push(err300);
                    }
                    errors++;
                  }
                } else {
                  const err301 = { instancePath: instancePath + "/covers/" + i13, schemaPath: "#/oneOf/12/properties/covers/items/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err301];
                  } else {
                    vErrors.push(err301);
                  }
                  errors++;
                }
                var _valid14 = _errs289 === errors;
                valid85 = valid85 || _valid14;
                if (!valid85) {
                  const err302 = { instancePath: instancePath + "/covers/" + i13, schemaPath: "#/oneOf/12/properties/covers/items/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
                  if (vErrors === null) {
                    vErrors = [err302];
                  } else {
                    vErrors.push(err302);
                  }
                  errors++;
                } else {
                  errors = _errs286;
                  if (vErrors !== null) {
                    if (_errs286) {
                      vErrors.length = _errs286;
                    } else {
                      vErrors = null;
                    }
                  }
                }
              }
            } else {
              const err303 = { instancePath: instancePath + "/covers", schemaPath: "#/oneOf/12/properties/covers/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err303];
              } else {
                vErrors.push(err303);
              }
              errors++;
            }
          }
        } else {
          const err304 = { instancePath, schemaPath: "#/oneOf/12/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err304];
          } else {
            vErrors.push(err304);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else {
        const err305 = { instancePath, schemaPath: "#/discriminator", keyword: "discriminator", params: { error: "mapping", tag: "type", tagValue: tag0 }, message: 'value of tag "type" must be in oneOf' };
        if (vErrors === null) {
          vErrors = [err305];
        } else {
          vErrors.push(err305);
        }
        errors++;
      }
    } else {
      const err306 = { instancePath, schemaPath: "#/discriminator", keyword: "discriminator", params: { error: "tag", tag: "type", tagValue: tag0 }, message: 'tag "type" must be string' };
      if (vErrors === null) {
        vErrors = [err306];
      } else {
        vErrors.push(err306);
      }
      errors++;
    }
  } else {
    const err307 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err307];
    } else {
      vErrors.push(err307);
    }
    errors++;
  }
  validate22.errors = vErrors;
  evaluated0.props = props0;
  return errors === 0;
}
validate22.evaluated = { "dynamicProps": true, "dynamicItems": false };
function validate21(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate21.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.id === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "id" }, message: "must have required property 'id'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.input === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "input" }, message: "must have required property 'input'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.assertions === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "assertions" }, message: "must have required property 'assertions'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "id" || key0 === "description" || key0 === "input" || key0 === "expected" || key0 === "assertions" || key0 === "tags")) {
        const err3 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.id !== void 0) {
      let data0 = data.id;
      if (typeof data0 === "string") {
        if (!pattern5.test(data0)) {
          const err4 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/CaseId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
      } else {
        const err5 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/CaseId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.description !== void 0) {
      let data1 = data.description;
      if (typeof data1 === "string") {
        if (func1(data1) > 2e3) {
          const err6 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/maxLength", keyword: "maxLength", params: { limit: 2e3 }, message: "must NOT have more than 2000 characters" };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
      } else {
        const err7 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.input !== void 0) {
      let data2 = data.input;
      if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
        if (data2.text === void 0) {
          const err8 = { instancePath: instancePath + "/input", schemaPath: "#/$defs/EvalInput/required", keyword: "required", params: { missingProperty: "text" }, message: "must have required property 'text'" };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
        for (const key1 in data2) {
          if (!(key1 === "text" || key1 === "data" || key1 === "skill")) {
            const err9 = { instancePath: instancePath + "/input", schemaPath: "#/$defs/EvalInput/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err9];
            } else {
              vErrors.push(err9);
            }
            errors++;
          }
        }
        if (data2.text !== void 0) {
          let data3 = data2.text;
          if (typeof data3 === "string") {
            if (func1(data3) > 1e5) {
              const err10 = { instancePath: instancePath + "/input/text", schemaPath: "#/$defs/EvalInput/properties/text/maxLength", keyword: "maxLength", params: { limit: 1e5 }, message: "must NOT have more than 100000 characters" };
              if (vErrors === null) {
                vErrors = [err10];
              } else {
                vErrors.push(err10);
              }
              errors++;
            }
          } else {
            const err11 = { instancePath: instancePath + "/input/text", schemaPath: "#/$defs/EvalInput/properties/text/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err11];
            } else {
              vErrors.push(err11);
            }
            errors++;
          }
        }
        if (data2.skill !== void 0) {
          let data4 = data2.skill;
          if (typeof data4 === "string") {
            if (func1(data4) > 256) {
              const err12 = { instancePath: instancePath + "/input/skill", schemaPath: "#/$defs/EvalInput/properties/skill/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
              if (vErrors === null) {
                vErrors = [err12];
              } else {
                vErrors.push(err12);
              }
              errors++;
            }
            if (func1(data4) < 1) {
              const err13 = { instancePath: instancePath + "/input/skill", schemaPath: "#/$defs/EvalInput/properties/skill/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err13];
              } else {
                vErrors.push(err13);
              }
              errors++;
            }
          } else {
            const err14 = { instancePath: instancePath + "/input/skill", schemaPath: "#/$defs/EvalInput/properties/skill/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err14];
            } else {
              vErrors.push(err14);
            }
            errors++;
          }
        }
      } else {
        const err15 = { instancePath: instancePath + "/input", schemaPath: "#/$defs/EvalInput/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
    }
    if (data.expected !== void 0) {
      let data5 = data.expected;
      if (data5 && typeof data5 == "object" && !Array.isArray(data5)) {
        if (Object.keys(data5).length > 1) {
          const err16 = { instancePath: instancePath + "/expected", schemaPath: "#/$defs/EvalExpected/maxProperties", keyword: "maxProperties", params: { limit: 1 }, message: "must NOT have more than 1 properties" };
          if (vErrors === null) {
            vErrors = [err16];
          } else {
            vErrors.push(err16);
          }
          errors++;
        }
        if (Object.keys(data5).length < 1) {
          const err17 = { instancePath: instancePath + "/expected", schemaPath: "#/$defs/EvalExpected/minProperties", keyword: "minProperties", params: { limit: 1 }, message: "must NOT have fewer than 1 properties" };
          if (vErrors === null) {
            vErrors = [err17];
          } else {
            vErrors.push(err17);
          }
          errors++;
        }
        for (const key2 in data5) {
          if (!(key2 === "text" || key2 === "data")) {
            const err18 = { instancePath: instancePath + "/expected", schemaPath: "#/$defs/EvalExpected/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err18];
            } else {
              vErrors.push(err18);
            }
            errors++;
          }
        }
        if (data5.text !== void 0) {
          let data6 = data5.text;
          if (typeof data6 === "string") {
            if (func1(data6) > 1e5) {
              const err19 = { instancePath: instancePath + "/expected/text", schemaPath: "#/$defs/EvalExpected/properties/text/maxLength", keyword: "maxLength", params: { limit: 1e5 }, message: "must NOT have more than 100000 characters" };
              if (vErrors === null) {
                vErrors = [err19];
              } else {
                vErrors.push(err19);
              }
              errors++;
            }
          } else {
            const err20 = { instancePath: instancePath + "/expected/text", schemaPath: "#/$defs/EvalExpected/properties/text/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err20];
            } else {
              vErrors.push(err20);
            }
            errors++;
          }
        }
      } else {
        const err21 = { instancePath: instancePath + "/expected", schemaPath: "#/$defs/EvalExpected/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err21];
        } else {
          vErrors.push(err21);
        }
        errors++;
      }
    }
    if (data.assertions !== void 0) {
      let data7 = data.assertions;
      if (Array.isArray(data7)) {
        if (data7.length > 64) {
          const err22 = { instancePath: instancePath + "/assertions", schemaPath: "#/properties/assertions/maxItems", keyword: "maxItems", params: { limit: 64 }, message: "must NOT have more than 64 items" };
          if (vErrors === null) {
            vErrors = [err22];
          } else {
            vErrors.push(err22);
          }
          errors++;
        }
        if (data7.length < 1) {
          const err23 = { instancePath: instancePath + "/assertions", schemaPath: "#/properties/assertions/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err23];
          } else {
            vErrors.push(err23);
          }
          errors++;
        }
        const len0 = data7.length;
        for (let i0 = 0; i0 < len0; i0++) {
          if (!validate22(data7[i0], { instancePath: instancePath + "/assertions/" + i0, parentData: data7, parentDataProperty: i0, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err24 = { instancePath: instancePath + "/assertions", schemaPath: "#/properties/assertions/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err24];
        } else {
          vErrors.push(err24);
        }
        errors++;
      }
    }
    if (data.tags !== void 0) {
      let data9 = data.tags;
      if (Array.isArray(data9)) {
        if (data9.length > 32) {
          const err25 = { instancePath: instancePath + "/tags", schemaPath: "#/properties/tags/maxItems", keyword: "maxItems", params: { limit: 32 }, message: "must NOT have more than 32 items" };
          if (vErrors === null) {
            vErrors = [err25];
          } else {
            vErrors.push(err25);
          }
          errors++;
        }
        const len1 = data9.length;
        for (let i1 = 0; i1 < len1; i1++) {
          let data10 = data9[i1];
          if (typeof data10 === "string") {
            if (!pattern5.test(data10)) {
              const err26 = { instancePath: instancePath + "/tags/" + i1, schemaPath: "#/properties/tags/items/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
              if (vErrors === null) {
                vErrors = [err26];
              } else {
                vErrors.push(err26);
              }
              errors++;
            }
          } else {
            const err27 = { instancePath: instancePath + "/tags/" + i1, schemaPath: "#/properties/tags/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err27];
            } else {
              vErrors.push(err27);
            }
            errors++;
          }
        }
        let i2 = data9.length;
        let j0;
        if (i2 > 1) {
          const indices0 = {};
          for (; i2--; ) {
            let item0 = data9[i2];
            if (typeof item0 !== "string") {
              continue;
            }
            if (typeof indices0[item0] == "number") {
              j0 = indices0[item0];
              const err28 = { instancePath: instancePath + "/tags", schemaPath: "#/properties/tags/uniqueItems", keyword: "uniqueItems", params: { i: i2, j: j0 }, message: "must NOT have duplicate items (items ## " + j0 + " and " + i2 + " are identical)" };
              if (vErrors === null) {
                vErrors = [err28];
              } else {
                vErrors.push(err28);
              }
              errors++;
              break;
            }
            indices0[item0] = i2;
          }
        }
      } else {
        const err29 = { instancePath: instancePath + "/tags", schemaPath: "#/properties/tags/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err29];
        } else {
          vErrors.push(err29);
        }
        errors++;
      }
    }
  } else {
    const err30 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err30];
    } else {
      vErrors.push(err30);
    }
    errors++;
  }
  validate21.errors = vErrors;
  return errors === 0;
}
validate21.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
function validate20(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  ;
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate20.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.schemaVersion === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "schemaVersion" }, message: "must have required property 'schemaVersion'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.cases === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "cases" }, message: "must have required property 'cases'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "$schema" || key0 === "schemaVersion" || key0 === "grader" || key0 === "graders" || key0 === "cases")) {
        const err2 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    if (data.$schema !== void 0) {
      if (typeof data.$schema !== "string") {
        const err3 = { instancePath: instancePath + "/$schema", schemaPath: "#/properties/%24schema/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.schemaVersion !== void 0) {
      if ("eval-cases/v1" !== data.schemaVersion) {
        const err4 = { instancePath: instancePath + "/schemaVersion", schemaPath: "#/properties/schemaVersion/const", keyword: "const", params: { allowedValue: "eval-cases/v1" }, message: "must be equal to constant" };
        if (vErrors === null) {
          vErrors = [err4];
        } else {
          vErrors.push(err4);
        }
        errors++;
      }
    }
    if (data.grader !== void 0) {
      let data2 = data.grader;
      if (typeof data2 === "string") {
        if (func1(data2) > 256) {
          const err5 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
        if (func1(data2) < 1) {
          const err6 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
      } else {
        const err7 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.graders !== void 0) {
      let data3 = data.graders;
      if (Array.isArray(data3)) {
        if (data3.length > 16) {
          const err8 = { instancePath: instancePath + "/graders", schemaPath: "#/properties/graders/maxItems", keyword: "maxItems", params: { limit: 16 }, message: "must NOT have more than 16 items" };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
        if (data3.length < 1) {
          const err9 = { instancePath: instancePath + "/graders", schemaPath: "#/properties/graders/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
        const len0 = data3.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data4 = data3[i0];
          if (data4 && typeof data4 == "object" && !Array.isArray(data4)) {
            if (data4.name === void 0) {
              const err10 = { instancePath: instancePath + "/graders/" + i0, schemaPath: "#/$defs/GraderPin/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
              if (vErrors === null) {
                vErrors = [err10];
              } else {
                vErrors.push(err10);
              }
              errors++;
            }
            if (data4.providerId === void 0) {
              const err11 = { instancePath: instancePath + "/graders/" + i0, schemaPath: "#/$defs/GraderPin/required", keyword: "required", params: { missingProperty: "providerId" }, message: "must have required property 'providerId'" };
              if (vErrors === null) {
                vErrors = [err11];
              } else {
                vErrors.push(err11);
              }
              errors++;
            }
            if (data4.modelId === void 0) {
              const err12 = { instancePath: instancePath + "/graders/" + i0, schemaPath: "#/$defs/GraderPin/required", keyword: "required", params: { missingProperty: "modelId" }, message: "must have required property 'modelId'" };
              if (vErrors === null) {
                vErrors = [err12];
              } else {
                vErrors.push(err12);
              }
              errors++;
            }
            if (data4.modelVersion === void 0) {
              const err13 = { instancePath: instancePath + "/graders/" + i0, schemaPath: "#/$defs/GraderPin/required", keyword: "required", params: { missingProperty: "modelVersion" }, message: "must have required property 'modelVersion'" };
              if (vErrors === null) {
                vErrors = [err13];
              } else {
                vErrors.push(err13);
              }
              errors++;
            }
            for (const key1 in data4) {
              if (!(key1 === "name" || key1 === "providerId" || key1 === "modelId" || key1 === "modelVersion" || key1 === "samplingParams")) {
                const err14 = { instancePath: instancePath + "/graders/" + i0, schemaPath: "#/$defs/GraderPin/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
                if (vErrors === null) {
                  vErrors = [err14];
                } else {
                  vErrors.push(err14);
                }
                errors++;
              }
            }
            if (data4.name !== void 0) {
              let data5 = data4.name;
              if (typeof data5 === "string") {
                if (func1(data5) > 63) {
                  const err15 = { instancePath: instancePath + "/graders/" + i0 + "/name", schemaPath: "#/$defs/GraderPin/properties/name/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
                  if (vErrors === null) {
                    vErrors = [err15];
                  } else {
                    vErrors.push(err15);
                  }
                  errors++;
                }
                if (!pattern4.test(data5)) {
                  const err16 = { instancePath: instancePath + "/graders/" + i0 + "/name", schemaPath: "#/$defs/GraderPin/properties/name/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
                  if (vErrors === null) {
                    vErrors = [err16];
                  } else {
                    vErrors.push(err16);
                  }
                  errors++;
                }
              } else {
                const err17 = { instancePath: instancePath + "/graders/" + i0 + "/name", schemaPath: "#/$defs/GraderPin/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err17];
                } else {
                  vErrors.push(err17);
                }
                errors++;
              }
            }
            if (data4.providerId !== void 0) {
              let data6 = data4.providerId;
              if (typeof data6 === "string") {
                if (func1(data6) > 128) {
                  const err18 = { instancePath: instancePath + "/graders/" + i0 + "/providerId", schemaPath: "#/$defs/GraderPin/properties/providerId/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
                  if (vErrors === null) {
                    vErrors = [err18];
                  } else {
                    vErrors.push(err18);
                  }
                  errors++;
                }
                if (func1(data6) < 1) {
                  const err19 = { instancePath: instancePath + "/graders/" + i0 + "/providerId", schemaPath: "#/$defs/GraderPin/properties/providerId/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                  if (vErrors === null) {
                    vErrors = [err19];
                  } else {
                    vErrors.push(err19);
                  }
                  errors++;
                }
              } else {
                const err20 = { instancePath: instancePath + "/graders/" + i0 + "/providerId", schemaPath: "#/$defs/GraderPin/properties/providerId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err20];
                } else {
                  vErrors.push(err20);
                }
                errors++;
              }
            }
            if (data4.modelId !== void 0) {
              let data7 = data4.modelId;
              if (typeof data7 === "string") {
                if (func1(data7) > 256) {
                  const err21 = { instancePath: instancePath + "/graders/" + i0 + "/modelId", schemaPath: "#/$defs/GraderPin/properties/modelId/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                  if (vErrors === null) {
                    vErrors = [err21];
                  } else {
                    vErrors.push(err21);
                  }
                  errors++;
                }
                if (func1(data7) < 1) {
                  const err22 = { instancePath: instancePath + "/graders/" + i0 + "/modelId", schemaPath: "#/$defs/GraderPin/properties/modelId/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                  if (vErrors === null) {
                    vErrors = [err22];
                  } else {
                    vErrors.push(err22);
                  }
                  errors++;
                }
              } else {
                const err23 = { instancePath: instancePath + "/graders/" + i0 + "/modelId", schemaPath: "#/$defs/GraderPin/properties/modelId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err23];
                } else {
                  vErrors.push(err23);
                }
                errors++;
              }
            }
            if (data4.modelVersion !== void 0) {
              let data8 = data4.modelVersion;
              if (typeof data8 === "string") {
                if (func1(data8) > 128) {
                  const err24 = { instancePath: instancePath + "/graders/" + i0 + "/modelVersion", schemaPath: "#/$defs/GraderPin/properties/modelVersion/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
                  if (vErrors === null) {
                    vErrors = [err24];
                  } else {
                    vErrors.push(err24);
                  }
                  errors++;
                }
                if (func1(data8) < 1) {
                  const err25 = { instancePath: instancePath + "/graders/" + i0 + "/modelVersion", schemaPath: "#/$defs/GraderPin/properties/modelVersion/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                  if (vErrors === null) {
                    vErrors = [err25];
                  } else {
                    vErrors.push(err25);
                  }
                  errors++;
                }
              } else {
                const err26 = { instancePath: instancePath + "/graders/" + i0 + "/modelVersion", schemaPath: "#/$defs/GraderPin/properties/modelVersion/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err26];
                } else {
                  vErrors.push(err26);
                }
                errors++;
              }
            }
            if (data4.samplingParams !== void 0) {
              let data9 = data4.samplingParams;
              if (data9 && typeof data9 == "object" && !Array.isArray(data9)) {
                for (const key2 in data9) {
                  if (!(key2 === "temperature" || key2 === "topP" || key2 === "maxTokens" || key2 === "seed")) {
                    const err27 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams", schemaPath: "#/$defs/GraderPin/properties/samplingParams/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 }, message: "must NOT have additional properties" };
                    if (vErrors === null) {
                      vErrors = [err27];
                    } else {
                      vErrors.push(err27);
                    }
                    errors++;
                  }
                }
                if (data9.temperature !== void 0) {
                  let data10 = data9.temperature;
                  if (typeof data10 == "number" && isFinite(data10)) {
                    if (data10 > 2 || isNaN(data10)) {
                      const err28 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/temperature", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/temperature/maximum", keyword: "maximum", params: { comparison: "<=", limit: 2 }, message: "must be <= 2" };
                      if (vErrors === null) {
                        vErrors = [err28];
                      } else {
                        vErrors.push(err28);
                      }
                      errors++;
                    }
                    if (data10 < 0 || isNaN(data10)) {
                      const err29 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/temperature", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/temperature/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                      if (vErrors === null) {
                        vErrors = [err29];
                      } else {
                        vErrors.push(err29);
                      }
                      errors++;
                    }
                  } else {
                    const err30 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/temperature", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/temperature/type", keyword: "type", params: { type: "number" }, message: "must be number" };
                    if (vErrors === null) {
                      vErrors = [err30];
                    } else {
                      vErrors.push(err30);
                    }
                    errors++;
                  }
                }
                if (data9.topP !== void 0) {
                  let data11 = data9.topP;
                  if (typeof data11 == "number" && isFinite(data11)) {
                    if (data11 > 1 || isNaN(data11)) {
                      const err31 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/topP", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/topP/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
                      if (vErrors === null) {
                        vErrors = [err31];
                      } else {
                        vErrors.push(err31);
                      }
                      errors++;
                    }
                    if (data11 < 0 || isNaN(data11)) {
                      const err32 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/topP", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/topP/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                      if (vErrors === null) {
                        vErrors = [err32];
                      } else {
                        vErrors.push(err32);
                      }
                      errors++;
                    }
                  } else {
                    const err33 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/topP", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/topP/type", keyword: "type", params: { type: "number" }, message: "must be number" };
                    if (vErrors === null) {
                      vErrors = [err33];
                    } else {
                      vErrors.push(err33);
                    }
                    errors++;
                  }
                }
                if (data9.maxTokens !== void 0) {
                  let data12 = data9.maxTokens;
                  if (!(typeof data12 == "number" && (!(data12 % 1) && !isNaN(data12)) && isFinite(data12))) {
                    const err34 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/maxTokens", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/maxTokens/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                    if (vErrors === null) {
                      vErrors = [err34];
                    } else {
                      vErrors.push(err34);
                    }
                    errors++;
                  }
                  if (typeof data12 == "number" && isFinite(data12)) {
                    if (data12 < 1 || isNaN(data12)) {
                      const err35 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/maxTokens", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/maxTokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
                      if (vErrors === null) {
                        vErrors = [err35];
                      } else {
                        vErrors.push(err35);
                      }
                      errors++;
                    }
                  }
                }
                if (data9.seed !== void 0) {
                  let data13 = data9.seed;
                  if (!(typeof data13 == "number" && (!(data13 % 1) && !isNaN(data13)) && isFinite(data13))) {
                    const err36 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams/seed", schemaPath: "#/$defs/GraderPin/properties/samplingParams/properties/seed/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
                    if (vErrors === null) {
                      vErrors = [err36];
                    } else {
                      vErrors.push(err36);
                    }
                    errors++;
                  }
                }
              } else {
                const err37 = { instancePath: instancePath + "/graders/" + i0 + "/samplingParams", schemaPath: "#/$defs/GraderPin/properties/samplingParams/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                if (vErrors === null) {
                  vErrors = [err37];
                } else {
                  vErrors.push(err37);
                }
                errors++;
              }
            }
          } else {
            const err38 = { instancePath: instancePath + "/graders/" + i0, schemaPath: "#/$defs/GraderPin/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err38];
            } else {
              vErrors.push(err38);
            }
            errors++;
          }
        }
      } else {
        const err39 = { instancePath: instancePath + "/graders", schemaPath: "#/properties/graders/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err39];
        } else {
          vErrors.push(err39);
        }
        errors++;
      }
    }
    if (data.cases !== void 0) {
      let data14 = data.cases;
      if (Array.isArray(data14)) {
        if (data14.length > 1e3) {
          const err40 = { instancePath: instancePath + "/cases", schemaPath: "#/properties/cases/maxItems", keyword: "maxItems", params: { limit: 1e3 }, message: "must NOT have more than 1000 items" };
          if (vErrors === null) {
            vErrors = [err40];
          } else {
            vErrors.push(err40);
          }
          errors++;
        }
        if (data14.length < 1) {
          const err41 = { instancePath: instancePath + "/cases", schemaPath: "#/properties/cases/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err41];
          } else {
            vErrors.push(err41);
          }
          errors++;
        }
        const len1 = data14.length;
        for (let i1 = 0; i1 < len1; i1++) {
          if (!validate21(data14[i1], { instancePath: instancePath + "/cases/" + i1, parentData: data14, parentDataProperty: i1, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err42 = { instancePath: instancePath + "/cases", schemaPath: "#/properties/cases/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err42];
        } else {
          vErrors.push(err42);
        }
        errors++;
      }
    }
  } else {
    const err43 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err43];
    } else {
      vErrors.push(err43);
    }
    errors++;
  }
  validate20.errors = vErrors;
  return errors === 0;
}
validate20.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };

export interface ValidationError { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message?: string }
export interface GeneratedValidator { (data: unknown): boolean; errors?: ValidationError[] | null }
export const validateEvalCases: GeneratedValidator = validateEvalCasesCompiled;
