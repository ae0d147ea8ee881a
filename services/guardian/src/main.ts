import { runService } from '@ledger-api/runtime';
import { guardianArea } from './service';

void runService(guardianArea);
