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
var pattern4 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", "u");
var schema37 = { "title": "Assertion", "description": "One check of a run, chosen by `type`.", "type": "object", "required": ["type"], "properties": { "type": { "type": "string", "enum": ["equals", "contains", "not-contains", "regex", "json-schema", "max-length", "max-latency", "max-cost", "tool-called", "tool-not-called", "no-egress-outside-allowlist", "invariant", "rubric"], "description": "The assertion kind; selects which of the shapes below applies." } }, "discriminator": { "propertyName": "type" }, "oneOf": [{ "type": "object", "title": "AssertEquals", "description": "The answer equals a value: a string is compared with the answer's text exactly; any other JSON value with the answer's data (or its text parsed as JSON), by canonical JSON.", "additionalProperties": false, "required": ["type"], "properties": { "type": { "const": "equals", "description": "The assertion kind." }, "value": { "description": "What the answer must equal; absent: the case's `expected` (its `text`, else its `data`)." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertContains", "description": "The answer's text contains a string.", "additionalProperties": false, "required": ["type", "value"], "properties": { "type": { "const": "contains", "description": "The assertion kind." }, "value": { "type": "string", "minLength": 1, "maxLength": 1e4, "description": "The text to find." }, "caseSensitive": { "type": "boolean", "description": "Compare case-sensitively (default true); false folds case with `toLowerCase`." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertNotContains", "description": "The answer's text does not contain a string.", "additionalProperties": false, "required": ["type", "value"], "properties": { "type": { "const": "not-contains", "description": "The assertion kind." }, "value": { "type": "string", "minLength": 1, "maxLength": 1e4, "description": "The text that must not appear." }, "caseSensitive": { "type": "boolean", "description": "Compare case-sensitively (default true)." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertRegex", "description": "The answer's text matches a regular expression (JavaScript syntax). With only the flags `m` and `s` and no lookaround or backreference the pattern runs on V8's linear-time engine (answers up to 1,000,000 characters). Otherwise, so that no pattern can backtrack catastrophically, it is refused when the file is loaded unless it has no backreference, no quantified group that holds a quantifier or an alternation, and at most one unbounded quantifier (`*`, `+`, `{n,}`); such a pattern is matched against answers up to 20,000 characters. A longer answer fails the assertion.", "additionalProperties": false, "required": ["type", "pattern"], "properties": { "type": { "const": "regex", "description": "The assertion kind." }, "pattern": { "type": "string", "minLength": 1, "maxLength": 1e3, "description": "The regular expression, without slashes." }, "flags": { "type": "string", "pattern": "^[imsu]{0,4}$", "x-message": "must be some of the flags i, m, s, u", "description": "Flags: some of `i`, `m`, `s`, `u`." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertJsonSchema", "description": "The answer's data (or its text parsed as JSON) is valid against a JSON Schema (draft 2020-12; the standard formats; no remote references). Its patterns obey the regex assertion's rules.", "additionalProperties": false, "required": ["type", "schema"], "properties": { "type": { "const": "json-schema", "description": "The assertion kind." }, "schema": { "type": "object", "description": "The JSON Schema the output must satisfy." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertMaxLength", "description": "The answer's text has at most this many characters (Unicode code points).", "additionalProperties": false, "required": ["type", "chars"], "properties": { "type": { "const": "max-length", "description": "The assertion kind." }, "chars": { "type": "integer", "minimum": 0, "description": "The most characters allowed." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertMaxLatency", "description": "The run took at most this long, end to end.", "additionalProperties": false, "required": ["type", "ms"], "properties": { "type": { "const": "max-latency", "description": "The assertion kind." }, "ms": { "type": "integer", "minimum": 0, "description": "The most milliseconds allowed." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertMaxCost", "description": "The run's cost stays within limits (grader calls not counted); give `tokens`, `modelCalls` or both.", "additionalProperties": false, "required": ["type"], "properties": { "type": { "const": "max-cost", "description": "The assertion kind." }, "tokens": { "type": "integer", "minimum": 0, "description": "The most tokens (input plus output) of every model call of the run." }, "modelCalls": { "type": "integer", "minimum": 0, "description": "The most model calls of the run." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertToolCalled", "description": "The run called a tool (by the name the model calls it, `toolInventory[].name`).", "additionalProperties": false, "required": ["type", "tool"], "properties": { "type": { "const": "tool-called", "description": "The assertion kind." }, "tool": { "type": "string", "minLength": 1, "maxLength": 256, "description": "The tool name." }, "times": { "type": "integer", "minimum": 1, "description": "Exactly this many calls; absent: at least one." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertToolNotCalled", "description": "The run never called a tool.", "additionalProperties": false, "required": ["type", "tool"], "properties": { "type": { "const": "tool-not-called", "description": "The assertion kind." }, "tool": { "type": "string", "minLength": 1, "maxLength": 256, "description": "The tool name." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertNoEgress", "description": "The run never tried to reach a host outside its egress allow-list.", "additionalProperties": false, "required": ["type"], "properties": { "type": { "const": "no-egress-outside-allowlist", "description": "The assertion kind." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertInvariant", "description": "Model-graded: the answer satisfies one of the definition's `capabilityContract.invariants`, as a grader judges it.", "additionalProperties": false, "required": ["type", "invariant"], "properties": { "type": { "const": "invariant", "description": "The assertion kind." }, "invariant": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "string", "minLength": 1, "maxLength": 4e3 }], "description": "The invariant: its 0-based index, or its exact text." }, "threshold": { "type": "number", "minimum": 0, "maximum": 1, "description": "The grader's score (0..1) at or above which the assertion passes; absent: it passes when the grader's verdict passes." }, "grader": { "$ref": "#/$defs/PinName", "description": "The pin that judges (its `name` in the definition's modelSet, or its `modelId`); default: the file's `grader`, else the definition's `evaluator` pin." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }, { "type": "object", "title": "AssertRubric", "description": "Model-graded: the answer satisfies a rubric (one criterion, or several that must all hold), as a grader judges it.", "additionalProperties": false, "required": ["type", "rubric"], "properties": { "type": { "const": "rubric", "description": "The assertion kind." }, "rubric": { "anyOf": [{ "type": "string", "minLength": 1, "maxLength": 4e3 }, { "type": "array", "minItems": 1, "maxItems": 32, "items": { "type": "string", "minLength": 1, "maxLength": 4e3 } }], "description": "The criterion, or a list of criteria." }, "threshold": { "type": "number", "minimum": 0, "maximum": 1, "description": "The grader's score (0..1) at or above which the assertion passes; absent: it passes when the grader's verdict passes." }, "grader": { "$ref": "#/$defs/PinName", "description": "The pin that judges (its `name` in the definition's modelSet, or its `modelId`); default: the file's `grader`, else the definition's `evaluator` pin." }, "id": { "$ref": "#/$defs/AssertionId", "description": "Names the assertion in reports (unique within its case); default `<index>-<type>`." }, "weight": { "type": "number", "minimum": 0, "maximum": 1e3, "description": "The assertion's weight in its case's score (default 1); 0 counts it in pass/fail only." } } }] };
var pattern8 = new RegExp("^[imsu]{0,4}$", "u");
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
        const err2 = { instancePath: instancePath + "/type", schemaPath: "#/properties/type/enum", keyword: "enum", params: { allowedValues: schema37.properties.type.enum }, message: "must be equal to one of the allowed values" };
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
            if (!(key0 === "type" || key0 === "value" || key0 === "id" || key0 === "weight")) {
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
              if (!pattern4.test(data2)) {
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
        } else {
          const err11 = { instancePath, schemaPath: "#/oneOf/0/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err11];
          } else {
            vErrors.push(err11);
          }
          errors++;
        }
        var props0 = true;
      } else if (tag0 === "contains") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err12 = { instancePath, schemaPath: "#/oneOf/1/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err12];
            } else {
              vErrors.push(err12);
            }
            errors++;
          }
          if (data.value === void 0) {
            const err13 = { instancePath, schemaPath: "#/oneOf/1/required", keyword: "required", params: { missingProperty: "value" }, message: "must have required property 'value'" };
            if (vErrors === null) {
              vErrors = [err13];
            } else {
              vErrors.push(err13);
            }
            errors++;
          }
          for (const key1 in data) {
            if (!(key1 === "type" || key1 === "value" || key1 === "caseSensitive" || key1 === "id" || key1 === "weight")) {
              const err14 = { instancePath, schemaPath: "#/oneOf/1/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err14];
              } else {
                vErrors.push(err14);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("contains" !== data.type) {
              const err15 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/1/properties/type/const", keyword: "const", params: { allowedValue: "contains" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err15];
              } else {
                vErrors.push(err15);
              }
              errors++;
            }
          }
          if (data.value !== void 0) {
            let data5 = data.value;
            if (typeof data5 === "string") {
              if (func1(data5) > 1e4) {
                const err16 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/1/properties/value/maxLength", keyword: "maxLength", params: { limit: 1e4 }, message: "must NOT have more than 10000 characters" };
                if (vErrors === null) {
                  vErrors = [err16];
                } else {
                  vErrors.push(err16);
                }
                errors++;
              }
              if (func1(data5) < 1) {
                const err17 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/1/properties/value/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err17];
                } else {
                  vErrors.push(err17);
                }
                errors++;
              }
            } else {
              const err18 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/1/properties/value/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err18];
              } else {
                vErrors.push(err18);
              }
              errors++;
            }
          }
          if (data.caseSensitive !== void 0) {
            if (typeof data.caseSensitive !== "boolean") {
              const err19 = { instancePath: instancePath + "/caseSensitive", schemaPath: "#/oneOf/1/properties/caseSensitive/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
              if (vErrors === null) {
                vErrors = [err19];
              } else {
                vErrors.push(err19);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data7 = data.id;
            if (typeof data7 === "string") {
              if (!pattern4.test(data7)) {
                const err20 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err20];
                } else {
                  vErrors.push(err20);
                }
                errors++;
              }
            } else {
              const err21 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err21];
              } else {
                vErrors.push(err21);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data8 = data.weight;
            if (typeof data8 == "number" && isFinite(data8)) {
              if (data8 > 1e3 || isNaN(data8)) {
                const err22 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/1/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err22];
                } else {
                  vErrors.push(err22);
                }
                errors++;
              }
              if (data8 < 0 || isNaN(data8)) {
                const err23 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/1/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err23];
                } else {
                  vErrors.push(err23);
                }
                errors++;
              }
            } else {
              const err24 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/1/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err24];
              } else {
                vErrors.push(err24);
              }
              errors++;
            }
          }
        } else {
          const err25 = { instancePath, schemaPath: "#/oneOf/1/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err25];
          } else {
            vErrors.push(err25);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "not-contains") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err26 = { instancePath, schemaPath: "#/oneOf/2/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
          if (data.value === void 0) {
            const err27 = { instancePath, schemaPath: "#/oneOf/2/required", keyword: "required", params: { missingProperty: "value" }, message: "must have required property 'value'" };
            if (vErrors === null) {
              vErrors = [err27];
            } else {
              vErrors.push(err27);
            }
            errors++;
          }
          for (const key2 in data) {
            if (!(key2 === "type" || key2 === "value" || key2 === "caseSensitive" || key2 === "id" || key2 === "weight")) {
              const err28 = { instancePath, schemaPath: "#/oneOf/2/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err28];
              } else {
                vErrors.push(err28);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("not-contains" !== data.type) {
              const err29 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/2/properties/type/const", keyword: "const", params: { allowedValue: "not-contains" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err29];
              } else {
                vErrors.push(err29);
              }
              errors++;
            }
          }
          if (data.value !== void 0) {
            let data10 = data.value;
            if (typeof data10 === "string") {
              if (func1(data10) > 1e4) {
                const err30 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/2/properties/value/maxLength", keyword: "maxLength", params: { limit: 1e4 }, message: "must NOT have more than 10000 characters" };
                if (vErrors === null) {
                  vErrors = [err30];
                } else {
                  vErrors.push(err30);
                }
                errors++;
              }
              if (func1(data10) < 1) {
                const err31 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/2/properties/value/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err31];
                } else {
                  vErrors.push(err31);
                }
                errors++;
              }
            } else {
              const err32 = { instancePath: instancePath + "/value", schemaPath: "#/oneOf/2/properties/value/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err32];
              } else {
                vErrors.push(err32);
              }
              errors++;
            }
          }
          if (data.caseSensitive !== void 0) {
            if (typeof data.caseSensitive !== "boolean") {
              const err33 = { instancePath: instancePath + "/caseSensitive", schemaPath: "#/oneOf/2/properties/caseSensitive/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
              if (vErrors === null) {
                vErrors = [err33];
              } else {
                vErrors.push(err33);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data12 = data.id;
            if (typeof data12 === "string") {
              if (!pattern4.test(data12)) {
                const err34 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err34];
                } else {
                  vErrors.push(err34);
                }
                errors++;
              }
            } else {
              const err35 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err35];
              } else {
                vErrors.push(err35);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data13 = data.weight;
            if (typeof data13 == "number" && isFinite(data13)) {
              if (data13 > 1e3 || isNaN(data13)) {
                const err36 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/2/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err36];
                } else {
                  vErrors.push(err36);
                }
                errors++;
              }
              if (data13 < 0 || isNaN(data13)) {
                const err37 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/2/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err37];
                } else {
                  vErrors.push(err37);
                }
                errors++;
              }
            } else {
              const err38 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/2/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err38];
              } else {
                vErrors.push(err38);
              }
              errors++;
            }
          }
        } else {
          const err39 = { instancePath, schemaPath: "#/oneOf/2/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err39];
          } else {
            vErrors.push(err39);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "regex") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err40 = { instancePath, schemaPath: "#/oneOf/3/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err40];
            } else {
              vErrors.push(err40);
            }
            errors++;
          }
          if (data.pattern === void 0) {
            const err41 = { instancePath, schemaPath: "#/oneOf/3/required", keyword: "required", params: { missingProperty: "pattern" }, message: "must have required property 'pattern'" };
            if (vErrors === null) {
              vErrors = [err41];
            } else {
              vErrors.push(err41);
            }
            errors++;
          }
          for (const key3 in data) {
            if (!(key3 === "type" || key3 === "pattern" || key3 === "flags" || key3 === "id" || key3 === "weight")) {
              const err42 = { instancePath, schemaPath: "#/oneOf/3/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key3 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err42];
              } else {
                vErrors.push(err42);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("regex" !== data.type) {
              const err43 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/3/properties/type/const", keyword: "const", params: { allowedValue: "regex" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err43];
              } else {
                vErrors.push(err43);
              }
              errors++;
            }
          }
          if (data.pattern !== void 0) {
            let data15 = data.pattern;
            if (typeof data15 === "string") {
              if (func1(data15) > 1e3) {
                const err44 = { instancePath: instancePath + "/pattern", schemaPath: "#/oneOf/3/properties/pattern/maxLength", keyword: "maxLength", params: { limit: 1e3 }, message: "must NOT have more than 1000 characters" };
                if (vErrors === null) {
                  vErrors = [err44];
                } else {
                  vErrors.push(err44);
                }
                errors++;
              }
              if (func1(data15) < 1) {
                const err45 = { instancePath: instancePath + "/pattern", schemaPath: "#/oneOf/3/properties/pattern/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err45];
                } else {
                  vErrors.push(err45);
                }
                errors++;
              }
            } else {
              const err46 = { instancePath: instancePath + "/pattern", schemaPath: "#/oneOf/3/properties/pattern/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err46];
              } else {
                vErrors.push(err46);
              }
              errors++;
            }
          }
          if (data.flags !== void 0) {
            let data16 = data.flags;
            if (typeof data16 === "string") {
              if (!pattern8.test(data16)) {
                const err47 = { instancePath: instancePath + "/flags", schemaPath: "#/oneOf/3/properties/flags/pattern", keyword: "pattern", params: { pattern: "^[imsu]{0,4}$" }, message: 'must match pattern "^[imsu]{0,4}$"' };
                if (vErrors === null) {
                  vErrors = [err47];
                } else {
                  vErrors.push(err47);
                }
                errors++;
              }
            } else {
              const err48 = { instancePath: instancePath + "/flags", schemaPath: "#/oneOf/3/properties/flags/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err48];
              } else {
                vErrors.push(err48);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data17 = data.id;
            if (typeof data17 === "string") {
              if (!pattern4.test(data17)) {
                const err49 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err49];
                } else {
                  vErrors.push(err49);
                }
                errors++;
              }
            } else {
              const err50 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err50];
              } else {
                vErrors.push(err50);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data18 = data.weight;
            if (typeof data18 == "number" && isFinite(data18)) {
              if (data18 > 1e3 || isNaN(data18)) {
                const err51 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/3/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err51];
                } else {
                  vErrors.push(err51);
                }
                errors++;
              }
              if (data18 < 0 || isNaN(data18)) {
                const err52 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/3/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err52];
                } else {
                  vErrors.push(err52);
                }
                errors++;
              }
            } else {
              const err53 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/3/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err53];
              } else {
                vErrors.push(err53);
              }
              errors++;
            }
          }
        } else {
          const err54 = { instancePath, schemaPath: "#/oneOf/3/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err54];
          } else {
            vErrors.push(err54);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "json-schema") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err55 = { instancePath, schemaPath: "#/oneOf/4/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err55];
            } else {
              vErrors.push(err55);
            }
            errors++;
          }
          if (data.schema === void 0) {
            const err56 = { instancePath, schemaPath: "#/oneOf/4/required", keyword: "required", params: { missingProperty: "schema" }, message: "must have required property 'schema'" };
            if (vErrors === null) {
              vErrors = [err56];
            } else {
              vErrors.push(err56);
            }
            errors++;
          }
          for (const key4 in data) {
            if (!(key4 === "type" || key4 === "schema" || key4 === "id" || key4 === "weight")) {
              const err57 = { instancePath, schemaPath: "#/oneOf/4/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key4 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err57];
              } else {
                vErrors.push(err57);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("json-schema" !== data.type) {
              const err58 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/4/properties/type/const", keyword: "const", params: { allowedValue: "json-schema" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err58];
              } else {
                vErrors.push(err58);
              }
              errors++;
            }
          }
          if (data.schema !== void 0) {
            let data20 = data.schema;
            if (!(data20 && typeof data20 == "object" && !Array.isArray(data20))) {
              const err59 = { instancePath: instancePath + "/schema", schemaPath: "#/oneOf/4/properties/schema/type", keyword: "type", params: { type: "object" }, message: "must be object" };
              if (vErrors === null) {
                vErrors = [err59];
              } else {
                vErrors.push(err59);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data21 = data.id;
            if (typeof data21 === "string") {
              if (!pattern4.test(data21)) {
                const err60 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err60];
                } else {
                  vErrors.push(err60);
                }
                errors++;
              }
            } else {
              const err61 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err61];
              } else {
                vErrors.push(err61);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data22 = data.weight;
            if (typeof data22 == "number" && isFinite(data22)) {
              if (data22 > 1e3 || isNaN(data22)) {
                const err62 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/4/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err62];
                } else {
                  vErrors.push(err62);
                }
                errors++;
              }
              if (data22 < 0 || isNaN(data22)) {
                const err63 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/4/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err63];
                } else {
                  vErrors.push(err63);
                }
                errors++;
              }
            } else {
              const err64 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/4/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err64];
              } else {
                vErrors.push(err64);
              }
              errors++;
            }
          }
        } else {
          const err65 = { instancePath, schemaPath: "#/oneOf/4/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err65];
          } else {
            vErrors.push(err65);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "max-length") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err66 = { instancePath, schemaPath: "#/oneOf/5/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err66];
            } else {
              vErrors.push(err66);
            }
            errors++;
          }
          if (data.chars === void 0) {
            const err67 = { instancePath, schemaPath: "#/oneOf/5/required", keyword: "required", params: { missingProperty: "chars" }, message: "must have required property 'chars'" };
            if (vErrors === null) {
              vErrors = [err67];
            } else {
              vErrors.push(err67);
            }
            errors++;
          }
          for (const key5 in data) {
            if (!(key5 === "type" || key5 === "chars" || key5 === "id" || key5 === "weight")) {
              const err68 = { instancePath, schemaPath: "#/oneOf/5/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key5 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err68];
              } else {
                vErrors.push(err68);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("max-length" !== data.type) {
              const err69 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/5/properties/type/const", keyword: "const", params: { allowedValue: "max-length" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err69];
              } else {
                vErrors.push(err69);
              }
              errors++;
            }
          }
          if (data.chars !== void 0) {
            let data24 = data.chars;
            if (!(typeof data24 == "number" && (!(data24 % 1) && !isNaN(data24)) && isFinite(data24))) {
              const err70 = { instancePath: instancePath + "/chars", schemaPath: "#/oneOf/5/properties/chars/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err70];
              } else {
                vErrors.push(err70);
              }
              errors++;
            }
            if (typeof data24 == "number" && isFinite(data24)) {
              if (data24 < 0 || isNaN(data24)) {
                const err71 = { instancePath: instancePath + "/chars", schemaPath: "#/oneOf/5/properties/chars/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err71];
                } else {
                  vErrors.push(err71);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data25 = data.id;
            if (typeof data25 === "string") {
              if (!pattern4.test(data25)) {
                const err72 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err72];
                } else {
                  vErrors.push(err72);
                }
                errors++;
              }
            } else {
              const err73 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err73];
              } else {
                vErrors.push(err73);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data26 = data.weight;
            if (typeof data26 == "number" && isFinite(data26)) {
              if (data26 > 1e3 || isNaN(data26)) {
                const err74 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/5/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err74];
                } else {
                  vErrors.push(err74);
                }
                errors++;
              }
              if (data26 < 0 || isNaN(data26)) {
                const err75 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/5/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err75];
                } else {
                  vErrors.push(err75);
                }
                errors++;
              }
            } else {
              const err76 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/5/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err76];
              } else {
                vErrors.push(err76);
              }
              errors++;
            }
          }
        } else {
          const err77 = { instancePath, schemaPath: "#/oneOf/5/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err77];
          } else {
            vErrors.push(err77);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "max-latency") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err78 = { instancePath, schemaPath: "#/oneOf/6/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err78];
            } else {
              vErrors.push(err78);
            }
            errors++;
          }
          if (data.ms === void 0) {
            const err79 = { instancePath, schemaPath: "#/oneOf/6/required", keyword: "required", params: { missingProperty: "ms" }, message: "must have required property 'ms'" };
            if (vErrors === null) {
              vErrors = [err79];
            } else {
              vErrors.push(err79);
            }
            errors++;
          }
          for (const key6 in data) {
            if (!(key6 === "type" || key6 === "ms" || key6 === "id" || key6 === "weight")) {
              const err80 = { instancePath, schemaPath: "#/oneOf/6/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key6 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err80];
              } else {
                vErrors.push(err80);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("max-latency" !== data.type) {
              const err81 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/6/properties/type/const", keyword: "const", params: { allowedValue: "max-latency" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err81];
              } else {
                vErrors.push(err81);
              }
              errors++;
            }
          }
          if (data.ms !== void 0) {
            let data28 = data.ms;
            if (!(typeof data28 == "number" && (!(data28 % 1) && !isNaN(data28)) && isFinite(data28))) {
              const err82 = { instancePath: instancePath + "/ms", schemaPath: "#/oneOf/6/properties/ms/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err82];
              } else {
                vErrors.push(err82);
              }
              errors++;
            }
            if (typeof data28 == "number" && isFinite(data28)) {
              if (data28 < 0 || isNaN(data28)) {
                const err83 = { instancePath: instancePath + "/ms", schemaPath: "#/oneOf/6/properties/ms/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err83];
                } else {
                  vErrors.push(err83);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data29 = data.id;
            if (typeof data29 === "string") {
              if (!pattern4.test(data29)) {
                const err84 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err84];
                } else {
                  vErrors.push(err84);
                }
                errors++;
              }
            } else {
              const err85 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err85];
              } else {
                vErrors.push(err85);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data30 = data.weight;
            if (typeof data30 == "number" && isFinite(data30)) {
              if (data30 > 1e3 || isNaN(data30)) {
                const err86 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/6/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err86];
                } else {
                  vErrors.push(err86);
                }
                errors++;
              }
              if (data30 < 0 || isNaN(data30)) {
                const err87 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/6/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err87];
                } else {
                  vErrors.push(err87);
                }
                errors++;
              }
            } else {
              const err88 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/6/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err88];
              } else {
                vErrors.push(err88);
              }
              errors++;
            }
          }
        } else {
          const err89 = { instancePath, schemaPath: "#/oneOf/6/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err89];
          } else {
            vErrors.push(err89);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "max-cost") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err90 = { instancePath, schemaPath: "#/oneOf/7/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err90];
            } else {
              vErrors.push(err90);
            }
            errors++;
          }
          for (const key7 in data) {
            if (!(key7 === "type" || key7 === "tokens" || key7 === "modelCalls" || key7 === "id" || key7 === "weight")) {
              const err91 = { instancePath, schemaPath: "#/oneOf/7/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key7 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err91];
              } else {
                vErrors.push(err91);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("max-cost" !== data.type) {
              const err92 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/7/properties/type/const", keyword: "const", params: { allowedValue: "max-cost" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err92];
              } else {
                vErrors.push(err92);
              }
              errors++;
            }
          }
          if (data.tokens !== void 0) {
            let data32 = data.tokens;
            if (!(typeof data32 == "number" && (!(data32 % 1) && !isNaN(data32)) && isFinite(data32))) {
              const err93 = { instancePath: instancePath + "/tokens", schemaPath: "#/oneOf/7/properties/tokens/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err93];
              } else {
                vErrors.push(err93);
              }
              errors++;
            }
            if (typeof data32 == "number" && isFinite(data32)) {
              if (data32 < 0 || isNaN(data32)) {
                const err94 = { instancePath: instancePath + "/tokens", schemaPath: "#/oneOf/7/properties/tokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err94];
                } else {
                  vErrors.push(err94);
                }
                errors++;
              }
            }
          }
          if (data.modelCalls !== void 0) {
            let data33 = data.modelCalls;
            if (!(typeof data33 == "number" && (!(data33 % 1) && !isNaN(data33)) && isFinite(data33))) {
              const err95 = { instancePath: instancePath + "/modelCalls", schemaPath: "#/oneOf/7/properties/modelCalls/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err95];
              } else {
                vErrors.push(err95);
              }
              errors++;
            }
            if (typeof data33 == "number" && isFinite(data33)) {
              if (data33 < 0 || isNaN(data33)) {
                const err96 = { instancePath: instancePath + "/modelCalls", schemaPath: "#/oneOf/7/properties/modelCalls/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err96];
                } else {
                  vErrors.push(err96);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data34 = data.id;
            if (typeof data34 === "string") {
              if (!pattern4.test(data34)) {
                const err97 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err97];
                } else {
                  vErrors.push(err97);
                }
                errors++;
              }
            } else {
              const err98 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err98];
              } else {
                vErrors.push(err98);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data35 = data.weight;
            if (typeof data35 == "number" && isFinite(data35)) {
              if (data35 > 1e3 || isNaN(data35)) {
                const err99 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/7/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err99];
                } else {
                  vErrors.push(err99);
                }
                errors++;
              }
              if (data35 < 0 || isNaN(data35)) {
                const err100 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/7/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err100];
                } else {
                  vErrors.push(err100);
                }
                errors++;
              }
            } else {
              const err101 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/7/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err101];
              } else {
                vErrors.push(err101);
              }
              errors++;
            }
          }
        } else {
          const err102 = { instancePath, schemaPath: "#/oneOf/7/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err102];
          } else {
            vErrors.push(err102);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "tool-called") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err103 = { instancePath, schemaPath: "#/oneOf/8/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err103];
            } else {
              vErrors.push(err103);
            }
            errors++;
          }
          if (data.tool === void 0) {
            const err104 = { instancePath, schemaPath: "#/oneOf/8/required", keyword: "required", params: { missingProperty: "tool" }, message: "must have required property 'tool'" };
            if (vErrors === null) {
              vErrors = [err104];
            } else {
              vErrors.push(err104);
            }
            errors++;
          }
          for (const key8 in data) {
            if (!(key8 === "type" || key8 === "tool" || key8 === "times" || key8 === "id" || key8 === "weight")) {
              const err105 = { instancePath, schemaPath: "#/oneOf/8/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key8 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err105];
              } else {
                vErrors.push(err105);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("tool-called" !== data.type) {
              const err106 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/8/properties/type/const", keyword: "const", params: { allowedValue: "tool-called" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err106];
              } else {
                vErrors.push(err106);
              }
              errors++;
            }
          }
          if (data.tool !== void 0) {
            let data37 = data.tool;
            if (typeof data37 === "string") {
              if (func1(data37) > 256) {
                const err107 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/8/properties/tool/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err107];
                } else {
                  vErrors.push(err107);
                }
                errors++;
              }
              if (func1(data37) < 1) {
                const err108 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/8/properties/tool/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err108];
                } else {
                  vErrors.push(err108);
                }
                errors++;
              }
            } else {
              const err109 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/8/properties/tool/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err109];
              } else {
                vErrors.push(err109);
              }
              errors++;
            }
          }
          if (data.times !== void 0) {
            let data38 = data.times;
            if (!(typeof data38 == "number" && (!(data38 % 1) && !isNaN(data38)) && isFinite(data38))) {
              const err110 = { instancePath: instancePath + "/times", schemaPath: "#/oneOf/8/properties/times/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err110];
              } else {
                vErrors.push(err110);
              }
              errors++;
            }
            if (typeof data38 == "number" && isFinite(data38)) {
              if (data38 < 1 || isNaN(data38)) {
                const err111 = { instancePath: instancePath + "/times", schemaPath: "#/oneOf/8/properties/times/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
                if (vErrors === null) {
                  vErrors = [err111];
                } else {
                  vErrors.push(err111);
                }
                errors++;
              }
            }
          }
          if (data.id !== void 0) {
            let data39 = data.id;
            if (typeof data39 === "string") {
              if (!pattern4.test(data39)) {
                const err112 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err112];
                } else {
                  vErrors.push(err112);
                }
                errors++;
              }
            } else {
              const err113 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err113];
              } else {
                vErrors.push(err113);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data40 = data.weight;
            if (typeof data40 == "number" && isFinite(data40)) {
              if (data40 > 1e3 || isNaN(data40)) {
                const err114 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/8/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err114];
                } else {
                  vErrors.push(err114);
                }
                errors++;
              }
              if (data40 < 0 || isNaN(data40)) {
                const err115 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/8/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err115];
                } else {
                  vErrors.push(err115);
                }
                errors++;
              }
            } else {
              const err116 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/8/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err116];
              } else {
                vErrors.push(err116);
              }
              errors++;
            }
          }
        } else {
          const err117 = { instancePath, schemaPath: "#/oneOf/8/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err117];
          } else {
            vErrors.push(err117);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "tool-not-called") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err118 = { instancePath, schemaPath: "#/oneOf/9/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err118];
            } else {
              vErrors.push(err118);
            }
            errors++;
          }
          if (data.tool === void 0) {
            const err119 = { instancePath, schemaPath: "#/oneOf/9/required", keyword: "required", params: { missingProperty: "tool" }, message: "must have required property 'tool'" };
            if (vErrors === null) {
              vErrors = [err119];
            } else {
              vErrors.push(err119);
            }
            errors++;
          }
          for (const key9 in data) {
            if (!(key9 === "type" || key9 === "tool" || key9 === "id" || key9 === "weight")) {
              const err120 = { instancePath, schemaPath: "#/oneOf/9/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key9 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err120];
              } else {
                vErrors.push(err120);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("tool-not-called" !== data.type) {
              const err121 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/9/properties/type/const", keyword: "const", params: { allowedValue: "tool-not-called" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err121];
              } else {
                vErrors.push(err121);
              }
              errors++;
            }
          }
          if (data.tool !== void 0) {
            let data42 = data.tool;
            if (typeof data42 === "string") {
              if (func1(data42) > 256) {
                const err122 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/9/properties/tool/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err122];
                } else {
                  vErrors.push(err122);
                }
                errors++;
              }
              if (func1(data42) < 1) {
                const err123 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/9/properties/tool/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err123];
                } else {
                  vErrors.push(err123);
                }
                errors++;
              }
            } else {
              const err124 = { instancePath: instancePath + "/tool", schemaPath: "#/oneOf/9/properties/tool/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err124];
              } else {
                vErrors.push(err124);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data43 = data.id;
            if (typeof data43 === "string") {
              if (!pattern4.test(data43)) {
                const err125 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err125];
                } else {
                  vErrors.push(err125);
                }
                errors++;
              }
            } else {
              const err126 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err126];
              } else {
                vErrors.push(err126);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data44 = data.weight;
            if (typeof data44 == "number" && isFinite(data44)) {
              if (data44 > 1e3 || isNaN(data44)) {
                const err127 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/9/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err127];
                } else {
                  vErrors.push(err127);
                }
                errors++;
              }
              if (data44 < 0 || isNaN(data44)) {
                const err128 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/9/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err128];
                } else {
                  vErrors.push(err128);
                }
                errors++;
              }
            } else {
              const err129 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/9/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err129];
              } else {
                vErrors.push(err129);
              }
              errors++;
            }
          }
        } else {
          const err130 = { instancePath, schemaPath: "#/oneOf/9/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err130];
          } else {
            vErrors.push(err130);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "no-egress-outside-allowlist") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err131 = { instancePath, schemaPath: "#/oneOf/10/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err131];
            } else {
              vErrors.push(err131);
            }
            errors++;
          }
          for (const key10 in data) {
            if (!(key10 === "type" || key10 === "id" || key10 === "weight")) {
              const err132 = { instancePath, schemaPath: "#/oneOf/10/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key10 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err132];
              } else {
                vErrors.push(err132);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("no-egress-outside-allowlist" !== data.type) {
              const err133 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/10/properties/type/const", keyword: "const", params: { allowedValue: "no-egress-outside-allowlist" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err133];
              } else {
                vErrors.push(err133);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data46 = data.id;
            if (typeof data46 === "string") {
              if (!pattern4.test(data46)) {
                const err134 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err134];
                } else {
                  vErrors.push(err134);
                }
                errors++;
              }
            } else {
              const err135 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err135];
              } else {
                vErrors.push(err135);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data47 = data.weight;
            if (typeof data47 == "number" && isFinite(data47)) {
              if (data47 > 1e3 || isNaN(data47)) {
                const err136 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/10/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err136];
                } else {
                  vErrors.push(err136);
                }
                errors++;
              }
              if (data47 < 0 || isNaN(data47)) {
                const err137 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/10/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err137];
                } else {
                  vErrors.push(err137);
                }
                errors++;
              }
            } else {
              const err138 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/10/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err138];
              } else {
                vErrors.push(err138);
              }
              errors++;
            }
          }
        } else {
          const err139 = { instancePath, schemaPath: "#/oneOf/10/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err139];
          } else {
            vErrors.push(err139);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "invariant") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err140 = { instancePath, schemaPath: "#/oneOf/11/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err140];
            } else {
              vErrors.push(err140);
            }
            errors++;
          }
          if (data.invariant === void 0) {
            const err141 = { instancePath, schemaPath: "#/oneOf/11/required", keyword: "required", params: { missingProperty: "invariant" }, message: "must have required property 'invariant'" };
            if (vErrors === null) {
              vErrors = [err141];
            } else {
              vErrors.push(err141);
            }
            errors++;
          }
          for (const key11 in data) {
            if (!(key11 === "type" || key11 === "invariant" || key11 === "threshold" || key11 === "grader" || key11 === "id" || key11 === "weight")) {
              const err142 = { instancePath, schemaPath: "#/oneOf/11/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key11 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err142];
              } else {
                vErrors.push(err142);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("invariant" !== data.type) {
              const err143 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/11/properties/type/const", keyword: "const", params: { allowedValue: "invariant" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err143];
              } else {
                vErrors.push(err143);
              }
              errors++;
            }
          }
          if (data.invariant !== void 0) {
            let data49 = data.invariant;
            const _errs148 = errors;
            let valid37 = false;
            const _errs149 = errors;
            if (!(typeof data49 == "number" && (!(data49 % 1) && !isNaN(data49)) && isFinite(data49))) {
              const err144 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/0/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
              if (vErrors === null) {
                vErrors = [err144];
              } else {
                vErrors.push(err144);
              }
              errors++;
            }
            if (typeof data49 == "number" && isFinite(data49)) {
              if (data49 < 0 || isNaN(data49)) {
                const err145 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/0/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err145];
                } else {
                  vErrors.push(err145);
                }
                errors++;
              }
            }
            var _valid0 = _errs149 === errors;
            valid37 = valid37 || _valid0;
            const _errs151 = errors;
            if (typeof data49 === "string") {
              if (func1(data49) > 4e3) {
                const err146 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/1/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                if (vErrors === null) {
                  vErrors = [err146];
                } else {
                  vErrors.push(err146);
                }
                errors++;
              }
              if (func1(data49) < 1) {
                const err147 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/1/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err147];
                } else {
                  vErrors.push(err147);
                }
                errors++;
              }
            } else {
              const err148 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf/1/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err148];
              } else {
                vErrors.push(err148);
              }
              errors++;
            }
            var _valid0 = _errs151 === errors;
            valid37 = valid37 || _valid0;
            if (!valid37) {
              const err149 = { instancePath: instancePath + "/invariant", schemaPath: "#/oneOf/11/properties/invariant/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
              if (vErrors === null) {
                vErrors = [err149];
              } else {
                vErrors.push(err149);
              }
              errors++;
            } else {
              errors = _errs148;
              if (vErrors !== null) {
                if (_errs148) {
                  vErrors.length = _errs148;
                } else {
                  vErrors = null;
                }
              }
            }
          }
          if (data.threshold !== void 0) {
            let data50 = data.threshold;
            if (typeof data50 == "number" && isFinite(data50)) {
              if (data50 > 1 || isNaN(data50)) {
                const err150 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/11/properties/threshold/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
                if (vErrors === null) {
                  vErrors = [err150];
                } else {
                  vErrors.push(err150);
                }
                errors++;
              }
              if (data50 < 0 || isNaN(data50)) {
                const err151 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/11/properties/threshold/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err151];
                } else {
                  vErrors.push(err151);
                }
                errors++;
              }
            } else {
              const err152 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/11/properties/threshold/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err152];
              } else {
                vErrors.push(err152);
              }
              errors++;
            }
          }
          if (data.grader !== void 0) {
            let data51 = data.grader;
            if (typeof data51 === "string") {
              if (func1(data51) > 256) {
                const err153 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err153];
                } else {
                  vErrors.push(err153);
                }
                errors++;
              }
              if (func1(data51) < 1) {
                const err154 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err154];
                } else {
                  vErrors.push(err154);
                }
                errors++;
              }
            } else {
              const err155 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err155];
              } else {
                vErrors.push(err155);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data52 = data.id;
            if (typeof data52 === "string") {
              if (!pattern4.test(data52)) {
                const err156 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err156];
                } else {
                  vErrors.push(err156);
                }
                errors++;
              }
            } else {
              const err157 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err157];
              } else {
                vErrors.push(err157);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data53 = data.weight;
            if (typeof data53 == "number" && isFinite(data53)) {
              if (data53 > 1e3 || isNaN(data53)) {
                const err158 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/11/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err158];
                } else {
                  vErrors.push(err158);
                }
                errors++;
              }
              if (data53 < 0 || isNaN(data53)) {
                const err159 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/11/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err159];
                } else {
                  vErrors.push(err159);
                }
                errors++;
              }
            } else {
              const err160 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/11/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err160];
              } else {
                vErrors.push(err160);
              }
              errors++;
            }
          }
        } else {
          const err161 = { instancePath, schemaPath: "#/oneOf/11/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err161];
          } else {
            vErrors.push(err161);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else if (tag0 === "rubric") {
        if (data && typeof data == "object" && !Array.isArray(data)) {
          if (data.type === void 0) {
            const err162 = { instancePath, schemaPath: "#/oneOf/12/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
            if (vErrors === null) {
              vErrors = [err162];
            } else {
              vErrors.push(err162);
            }
            errors++;
          }
          if (data.rubric === void 0) {
            const err163 = { instancePath, schemaPath: "#/oneOf/12/required", keyword: "required", params: { missingProperty: "rubric" }, message: "must have required property 'rubric'" };
            if (vErrors === null) {
              vErrors = [err163];
            } else {
              vErrors.push(err163);
            }
            errors++;
          }
          for (const key12 in data) {
            if (!(key12 === "type" || key12 === "rubric" || key12 === "threshold" || key12 === "grader" || key12 === "id" || key12 === "weight")) {
              const err164 = { instancePath, schemaPath: "#/oneOf/12/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key12 }, message: "must NOT have additional properties" };
              if (vErrors === null) {
                vErrors = [err164];
              } else {
                vErrors.push(err164);
              }
              errors++;
            }
          }
          if (data.type !== void 0) {
            if ("rubric" !== data.type) {
              const err165 = { instancePath: instancePath + "/type", schemaPath: "#/oneOf/12/properties/type/const", keyword: "const", params: { allowedValue: "rubric" }, message: "must be equal to constant" };
              if (vErrors === null) {
                vErrors = [err165];
              } else {
                vErrors.push(err165);
              }
              errors++;
            }
          }
          if (data.rubric !== void 0) {
            let data55 = data.rubric;
            const _errs169 = errors;
            let valid42 = false;
            const _errs170 = errors;
            if (typeof data55 === "string") {
              if (func1(data55) > 4e3) {
                const err166 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/0/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                if (vErrors === null) {
                  vErrors = [err166];
                } else {
                  vErrors.push(err166);
                }
                errors++;
              }
              if (func1(data55) < 1) {
                const err167 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/0/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err167];
                } else {
                  vErrors.push(err167);
                }
                errors++;
              }
            } else {
              const err168 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/0/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err168];
              } else {
                vErrors.push(err168);
              }
              errors++;
            }
            var _valid1 = _errs170 === errors;
            valid42 = valid42 || _valid1;
            const _errs172 = errors;
            if (Array.isArray(data55)) {
              if (data55.length > 32) {
                const err169 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/maxItems", keyword: "maxItems", params: { limit: 32 }, message: "must NOT have more than 32 items" };
                if (vErrors === null) {
                  vErrors = [err169];
                } else {
                  vErrors.push(err169);
                }
                errors++;
              }
              if (data55.length < 1) {
                const err170 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
                if (vErrors === null) {
                  vErrors = [err170];
                } else {
                  vErrors.push(err170);
                }
                errors++;
              }
              const len0 = data55.length;
              for (let i0 = 0; i0 < len0; i0++) {
                let data56 = data55[i0];
                if (typeof data56 === "string") {
                  if (func1(data56) > 4e3) {
                    const err171 = { instancePath: instancePath + "/rubric/" + i0, schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/items/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
                    if (vErrors === null) {
                      vErrors = [err171];
                    } else {
                      vErrors.push(err171);
                    }
                    errors++;
                  }
                  if (func1(data56) < 1) {
                    const err172 = { instancePath: instancePath + "/rubric/" + i0, schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                    if (vErrors === null) {
                      vErrors = [err172];
                    } else {
                      vErrors.push(err172);
                    }
                    errors++;
                  }
                } else {
                  const err173 = { instancePath: instancePath + "/rubric/" + i0, schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                  if (vErrors === null) {
                    vErrors = [err173];
                  } else {
                    vErrors.push(err173);
                  }
                  errors++;
                }
              }
            } else {
              const err174 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf/1/type", keyword: "type", params: { type: "array" }, message: "must be array" };
              if (vErrors === null) {
                vErrors = [err174];
              } else {
                vErrors.push(err174);
              }
              errors++;
            }
            var _valid1 = _errs172 === errors;
            valid42 = valid42 || _valid1;
            if (!valid42) {
              const err175 = { instancePath: instancePath + "/rubric", schemaPath: "#/oneOf/12/properties/rubric/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
              if (vErrors === null) {
                vErrors = [err175];
              } else {
                vErrors.push(err175);
              }
              errors++;
            } else {
              errors = _errs169;
              if (vErrors !== null) {
                if (_errs169) {
                  vErrors.length = _errs169;
                } else {
                  vErrors = null;
                }
              }
            }
          }
          if (data.threshold !== void 0) {
            let data57 = data.threshold;
            if (typeof data57 == "number" && isFinite(data57)) {
              if (data57 > 1 || isNaN(data57)) {
                const err176 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/12/properties/threshold/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
                if (vErrors === null) {
                  vErrors = [err176];
                } else {
                  vErrors.push(err176);
                }
                errors++;
              }
              if (data57 < 0 || isNaN(data57)) {
                const err177 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/12/properties/threshold/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err177];
                } else {
                  vErrors.push(err177);
                }
                errors++;
              }
            } else {
              const err178 = { instancePath: instancePath + "/threshold", schemaPath: "#/oneOf/12/properties/threshold/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err178];
              } else {
                vErrors.push(err178);
              }
              errors++;
            }
          }
          if (data.grader !== void 0) {
            let data58 = data.grader;
            if (typeof data58 === "string") {
              if (func1(data58) > 256) {
                const err179 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
                if (vErrors === null) {
                  vErrors = [err179];
                } else {
                  vErrors.push(err179);
                }
                errors++;
              }
              if (func1(data58) < 1) {
                const err180 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                if (vErrors === null) {
                  vErrors = [err180];
                } else {
                  vErrors.push(err180);
                }
                errors++;
              }
            } else {
              const err181 = { instancePath: instancePath + "/grader", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err181];
              } else {
                vErrors.push(err181);
              }
              errors++;
            }
          }
          if (data.id !== void 0) {
            let data59 = data.id;
            if (typeof data59 === "string") {
              if (!pattern4.test(data59)) {
                const err182 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"' };
                if (vErrors === null) {
                  vErrors = [err182];
                } else {
                  vErrors.push(err182);
                }
                errors++;
              }
            } else {
              const err183 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/AssertionId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
              if (vErrors === null) {
                vErrors = [err183];
              } else {
                vErrors.push(err183);
              }
              errors++;
            }
          }
          if (data.weight !== void 0) {
            let data60 = data.weight;
            if (typeof data60 == "number" && isFinite(data60)) {
              if (data60 > 1e3 || isNaN(data60)) {
                const err184 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/12/properties/weight/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1e3 }, message: "must be <= 1000" };
                if (vErrors === null) {
                  vErrors = [err184];
                } else {
                  vErrors.push(err184);
                }
                errors++;
              }
              if (data60 < 0 || isNaN(data60)) {
                const err185 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/12/properties/weight/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
                if (vErrors === null) {
                  vErrors = [err185];
                } else {
                  vErrors.push(err185);
                }
                errors++;
              }
            } else {
              const err186 = { instancePath: instancePath + "/weight", schemaPath: "#/oneOf/12/properties/weight/type", keyword: "type", params: { type: "number" }, message: "must be number" };
              if (vErrors === null) {
                vErrors = [err186];
              } else {
                vErrors.push(err186);
              }
              errors++;
            }
          }
        } else {
          const err187 = { instancePath, schemaPath: "#/oneOf/12/type", keyword: "type", params: { type: "object" }, message: "must be object" };
          if (vErrors === null) {
            vErrors = [err187];
          } else {
            vErrors.push(err187);
          }
          errors++;
        }
        if (props0 !== true) {
          props0 = true;
        }
      } else {
        const err188 = { instancePath, schemaPath: "#/discriminator", keyword: "discriminator", params: { error: "mapping", tag: "type", tagValue: tag0 }, message: 'value of tag "type" must be in oneOf' };
        if (vErrors === null) {
          vErrors = [err188];
        } else {
          vErrors.push(err188);
        }
        errors++;
      }
    } else {
      const err189 = { instancePath, schemaPath: "#/discriminator", keyword: "discriminator", params: { error: "tag", tag: "type", tagValue: tag0 }, message: 'tag "type" must be string' };
      if (vErrors === null) {
        vErrors = [err189];
      } else {
        vErrors.push(err189);
      }
      errors++;
    }
  } else {
    const err190 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err190];
    } else {
      vErrors.push(err190);
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
        if (!pattern4.test(data0)) {
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
            if (!pattern4.test(data10)) {
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
      if (!(key0 === "$schema" || key0 === "schemaVersion" || key0 === "grader" || key0 === "cases")) {
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
    if (data.cases !== void 0) {
      let data3 = data.cases;
      if (Array.isArray(data3)) {
        if (data3.length > 1e3) {
          const err8 = { instancePath: instancePath + "/cases", schemaPath: "#/properties/cases/maxItems", keyword: "maxItems", params: { limit: 1e3 }, message: "must NOT have more than 1000 items" };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
        if (data3.length < 1) {
          const err9 = { instancePath: instancePath + "/cases", schemaPath: "#/properties/cases/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
        const len0 = data3.length;
        for (let i0 = 0; i0 < len0; i0++) {
          if (!validate21(data3[i0], { instancePath: instancePath + "/cases/" + i0, parentData: data3, parentDataProperty: i0, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err10 = { instancePath: instancePath + "/cases", schemaPath: "#/properties/cases/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      }
    }
  } else {
    const err11 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err11];
    } else {
      vErrors.push(err11);
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
