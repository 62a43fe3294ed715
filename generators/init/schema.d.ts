/** Options of `nx g agentdef:init`. */
export interface InitGeneratorSchema {
  /** Register the plugin with `operationalTargets: true` (the default); `false` leaves the option out. */
  operationalTargets?: boolean;
}
