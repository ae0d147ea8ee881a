export { guardianArea } from './service';
