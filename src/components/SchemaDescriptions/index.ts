export {
  SchemaDescriptions,
  descriptionFields,
  renderValue,
  type SchemaDescriptionsProps,
  type DescriptionField,
  type DescriptionsUi,
  type FieldUi,
} from './SchemaDescriptions';
