/**
 * Field presence of the A2A v1.0.1 AgentCard and every message under it (the normative proto,
 * `lf.a2a.v1`), as the card signature's canonicalization needs it (§8.4.1 rule 1, §5.7):
 * `required` fields always stay; `optional` (proto `optional` keyword) and `explicit` (message and
 * Struct fields) stay when set; `implicit` scalars and non-required `repeated` / `map` fields are
 * omitted when they hold the default (`""`, `false`, `0`, empty). Checked field by field against
 * the derived required-fields file by card-presence.test.ts.
 */

export type FieldPresence = 'required' | 'optional' | 'explicit' | 'implicit' | 'repeated' | 'map';

export interface CardFieldSpec {
  /** A scalar proto type (`string`, `bool`, …), `struct` (google.protobuf.Struct: any JSON), or `message:<Name>`. */
  type: string;
  presence: FieldPresence;
  /** Set for repeated (`list`) and map (`map`) fields; `type` is then the element / value type. */
  container?: 'list' | 'map';
}

export const CARD_MESSAGES: Readonly<Record<string, Readonly<Record<string, CardFieldSpec>>>> = {
  AgentCard: {
    name: { type: 'string', presence: 'required' },
    description: { type: 'string', presence: 'required' },
    supportedInterfaces: { type: 'message:AgentInterface', presence: 'required', container: 'list' },
    provider: { type: 'message:AgentProvider', presence: 'explicit' },
    version: { type: 'string', presence: 'required' },
    documentationUrl: { type: 'string', presence: 'optional' },
    capabilities: { type: 'message:AgentCapabilities', presence: 'required' },
    securitySchemes: { type: 'message:SecurityScheme', presence: 'map', container: 'map' },
    securityRequirements: { type: 'message:SecurityRequirement', presence: 'repeated', container: 'list' },
    defaultInputModes: { type: 'string', presence: 'required', container: 'list' },
    defaultOutputModes: { type: 'string', presence: 'required', container: 'list' },
    skills: { type: 'message:AgentSkill', presence: 'required', container: 'list' },
    signatures: { type: 'message:AgentCardSignature', presence: 'repeated', container: 'list' },
    iconUrl: { type: 'string', presence: 'optional' },
  },
  AgentInterface: {
    url: { type: 'string', presence: 'required' },
    protocolBinding: { type: 'string', presence: 'required' },
    tenant: { type: 'string', presence: 'implicit' },
    protocolVersion: { type: 'string', presence: 'required' },
  },
  AgentProvider: {
    url: { type: 'string', presence: 'required' },
    organization: { type: 'string', presence: 'required' },
  },
  AgentCapabilities: {
    streaming: { type: 'bool', presence: 'optional' },
    pushNotifications: { type: 'bool', presence: 'optional' },
    extensions: { type: 'message:AgentExtension', presence: 'repeated', container: 'list' },
    extendedAgentCard: { type: 'bool', presence: 'optional' },
  },
  SecurityScheme: {
    apiKeySecurityScheme: { type: 'message:APIKeySecurityScheme', presence: 'explicit' },
    httpAuthSecurityScheme: { type: 'message:HTTPAuthSecurityScheme', presence: 'explicit' },
    oauth2SecurityScheme: { type: 'message:OAuth2SecurityScheme', presence: 'explicit' },
    openIdConnectSecurityScheme: { type: 'message:OpenIdConnectSecurityScheme', presence: 'explicit' },
    mtlsSecurityScheme: { type: 'message:MutualTlsSecurityScheme', presence: 'explicit' },
  },
  SecurityRequirement: {
    schemes: { type: 'message:StringList', presence: 'map', container: 'map' },
  },
  AgentSkill: {
    id: { type: 'string', presence: 'required' },
    name: { type: 'string', presence: 'required' },
    description: { type: 'string', presence: 'required' },
    tags: { type: 'string', presence: 'required', container: 'list' },
    examples: { type: 'string', presence: 'repeated', container: 'list' },
    inputModes: { type: 'string', presence: 'repeated', container: 'list' },
    outputModes: { type: 'string', presence: 'repeated', container: 'list' },
    securityRequirements: { type: 'message:SecurityRequirement', presence: 'repeated', container: 'list' },
  },
  AgentCardSignature: {
    protected: { type: 'string', presence: 'required' },
    signature: { type: 'string', presence: 'required' },
    header: { type: 'struct', presence: 'explicit' },
  },
  AgentExtension: {
    uri: { type: 'string', presence: 'implicit' },
    description: { type: 'string', presence: 'implicit' },
    required: { type: 'bool', presence: 'implicit' },
    params: { type: 'struct', presence: 'explicit' },
  },
  APIKeySecurityScheme: {
    description: { type: 'string', presence: 'implicit' },
    location: { type: 'string', presence: 'required' },
    name: { type: 'string', presence: 'required' },
  },
  HTTPAuthSecurityScheme: {
    description: { type: 'string', presence: 'implicit' },
    scheme: { type: 'string', presence: 'required' },
    bearerFormat: { type: 'string', presence: 'implicit' },
  },
  OAuth2SecurityScheme: {
    description: { type: 'string', presence: 'implicit' },
    flows: { type: 'message:OAuthFlows', presence: 'required' },
    oauth2MetadataUrl: { type: 'string', presence: 'implicit' },
  },
  OpenIdConnectSecurityScheme: {
    description: { type: 'string', presence: 'implicit' },
    openIdConnectUrl: { type: 'string', presence: 'required' },
  },
  MutualTlsSecurityScheme: {
    description: { type: 'string', presence: 'implicit' },
  },
  StringList: {
    list: { type: 'string', presence: 'repeated', container: 'list' },
  },
  OAuthFlows: {
    authorizationCode: { type: 'message:AuthorizationCodeOAuthFlow', presence: 'explicit' },
    clientCredentials: { type: 'message:ClientCredentialsOAuthFlow', presence: 'explicit' },
    implicit: { type: 'message:ImplicitOAuthFlow', presence: 'explicit' },
    password: { type: 'message:PasswordOAuthFlow', presence: 'explicit' },
    deviceCode: { type: 'message:DeviceCodeOAuthFlow', presence: 'explicit' },
  },
  AuthorizationCodeOAuthFlow: {
    authorizationUrl: { type: 'string', presence: 'required' },
    tokenUrl: { type: 'string', presence: 'required' },
    refreshUrl: { type: 'string', presence: 'implicit' },
    scopes: { type: 'string', presence: 'required', container: 'map' },
    pkceRequired: { type: 'bool', presence: 'implicit' },
  },
  ClientCredentialsOAuthFlow: {
    tokenUrl: { type: 'string', presence: 'required' },
    refreshUrl: { type: 'string', presence: 'implicit' },
    scopes: { type: 'string', presence: 'required', container: 'map' },
  },
  ImplicitOAuthFlow: {
    authorizationUrl: { type: 'string', presence: 'implicit' },
    refreshUrl: { type: 'string', presence: 'implicit' },
    scopes: { type: 'string', presence: 'map', container: 'map' },
  },
  PasswordOAuthFlow: {
    tokenUrl: { type: 'string', presence: 'implicit' },
    refreshUrl: { type: 'string', presence: 'implicit' },
    scopes: { type: 'string', presence: 'map', container: 'map' },
  },
  DeviceCodeOAuthFlow: {
    deviceAuthorizationUrl: { type: 'string', presence: 'required' },
    tokenUrl: { type: 'string', presence: 'required' },
    refreshUrl: { type: 'string', presence: 'implicit' },
    scopes: { type: 'string', presence: 'required', container: 'map' },
  },
};
